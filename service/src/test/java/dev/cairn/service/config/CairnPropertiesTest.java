package dev.cairn.service.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

class CairnPropertiesTest {

    @Test
    void theDefaultsAreValid() {
        assertDoesNotThrow(() -> new CairnProperties().validate());
    }

    @Test
    void eachGroupRefusesItsInvalidValuesByName() {
        refused("cairn.region", p -> p.setRegion(" "));
        refused("cairn.store", p -> p.setStore("nfs"));
        refused("cairn.auth.access-key and cairn.auth.secret-key", p -> p.getAuth().setAccessKey("AKID"));
        refused("cairn.auth.max-clock-skew", p -> p.getAuth().setMaxClockSkew(Duration.ofSeconds(-1)));
        refused("cairn.engine.ssd-cache-size", p -> p.getEngine().setSsdCacheSize(DataSize.ofBytes(-1)));
        refused("cairn.engine.sweep-interval", p -> p.getEngine().setSweepInterval(Duration.ofMinutes(-1)));
        refused("cairn.admin.checkpoint-lease", p -> p.getAdmin().setCheckpointLease(Duration.ofMillis(500)));
        refused("cairn.cache.object-cache-size", p -> p.getCache().setObjectCacheSize(DataSize.ofBytes(-1)));
        refused("cairn.cache.max-cached-object-size", p -> p.getCache().setMaxCachedObjectSize(DataSize.ofMegabytes(65)));
        refused("cairn.limits.max-delete-keys", p -> p.getLimits().setMaxDeleteKeys(0));
    }

    @Test
    void theCassandraStoresSettingsAreRefusedAsTheServicesOwn() {
        refused("cairn.cassandra.keyspace", p -> {
            p.setStore(CairnProperties.STORE_CASSANDRA);
            p.getCassandra().setKeyspace("Not-CQL");
        });
        refused("cairn.cassandra.cache.redis-channel", p -> {
            p.setStore(CairnProperties.STORE_CASSANDRA);
            p.getCassandra().getCache().setRedisChannel(" ");
        });
    }

    private static void refused(String setting, Consumer<CairnProperties> change) {
        CairnProperties properties = new CairnProperties();
        change.accept(properties);
        InvalidSettingException e = assertThrows(InvalidSettingException.class, properties::validate, setting);
        assertTrue(e.getMessage().contains(setting), e.getMessage());
    }
}
