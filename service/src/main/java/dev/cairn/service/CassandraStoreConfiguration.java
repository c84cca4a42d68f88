package dev.cairn.service;

import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.console.ClusterNodes;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.RedisInvalidationChannel;
import dev.cairn.store.RowCachingObjectStore;
import dev.cairn.store.cassandra.CassandraCacheSettings;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.SettleStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.util.function.ToDoubleFunction;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.HostAndPort;

/**
 * The Cassandra store, when {@code cairn.store=cassandra}, behind the row cache unless
 * {@code cairn.cassandra.cache.memory-size} is 0. The service's hot object cache stays off: the
 * row cache is the one whose invalidation reaches every node.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "cairn.store", havingValue = CairnProperties.STORE_CASSANDRA)
public class CassandraStoreConfiguration {
    static final String ROW_CACHE_DIR = "cassandra-row-cache";

    /**
     * The store itself, for what only it can tell (the cluster's nodes, its settling). Not an
     * {@link ObjectStore} bean: requests go through {@link #cassandraObjectStore}, which closes it.
     */
    public record CassandraBackend(CassandraObjectStore store) {
    }

    @Bean(destroyMethod = "")
    public CassandraBackend cassandraBackend(CairnProperties props) throws IOException {
        return new CassandraBackend(CassandraObjectStore.open(props.getCassandra()));
    }

    @Bean
    public ClusterNodes clusterNodes(CassandraBackend backend) {
        return backend.store()::nodes;
    }

    @Bean(destroyMethod = "close")
    public ObjectStore cassandraObjectStore(CassandraBackend backend, CairnProperties props) throws IOException {
        ObjectStore store = backend.store();
        CassandraCacheSettings c = props.getCassandra().getCache();
        if (!c.enabled()) {
            return store;
        }
        try {
            TieredCache cache = TieredCache.open(TieredCacheOptions.builder(props.getDataDir().resolve(ROW_CACHE_DIR))
                    .memoryBytes(c.getMemorySize().toBytes())
                    .ssdBytes(c.getSsdSize().toBytes())
                    .segmentBytes(c.getSegmentSize().toBytes())
                    .build());
            boolean redis = c.getInvalidation() == CassandraCacheSettings.Invalidation.REDIS;
            RowCachingObjectStore cached = new RowCachingObjectStore(store, cache, c.getMaxContentSize().toBytes(), !redis);
            if (redis) {
                cached.publishTo(RedisInvalidationChannel.start(HostAndPort.from(c.getRedisAddress()),
                        c.getRedisChannel(), c.getRedisTimeout(), cached));
            }
            return cached;
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The settling after answered writes (docs/cassandra.md, "Metrics"). */
    @Bean
    public MeterBinder cassandraSettleMeters(CassandraBackend backend) {
        CassandraObjectStore store = backend.store();
        return registry -> {
            Gauge.builder("cairn.cassandra.settle.backlog", store, s -> s.settleStats().backlog())
                    .description("settles queued or running").register(registry);
            settleCounter(registry, store, "cairn.cassandra.settles", SettleStats::settled,
                    "settles run (one per group of a key's writes queued together)");
            settleCounter(registry, store, "cairn.cassandra.settles.self", SettleStats::selfSettled,
                    "settles the writer ran before answering because the queue was full");
            settleCounter(registry, store, "cairn.cassandra.settles.coalesced", SettleStats::coalesced,
                    "writes that joined a queued settle of their key");
            settleCounter(registry, store, "cairn.cassandra.settles.overtaken", SettleStats::overtaken,
                    "settles that found a later write or a delete in the row");
            settleCounter(registry, store, "cairn.cassandra.settle.references.released", SettleStats::referencesDropped,
                    "references released by settles, deletes and drops");
            settleCounter(registry, store, "cairn.cassandra.settle.contents.reclaimed", SettleStats::reclaimed,
                    "contents whose last reference went and whose bytes were deleted");
            FunctionCounter.builder("cairn.cassandra.settle.time", store, s -> s.settleStats().settleNanos() / 1e9)
                    .baseUnit("seconds").description("time spent settling").register(registry);
        };
    }

    private static void settleCounter(MeterRegistry registry, CassandraObjectStore store, String name,
                                      ToDoubleFunction<SettleStats> value, String description) {
        FunctionCounter.builder(name, store, s -> value.applyAsDouble(s.settleStats())).description(description)
                .register(registry);
    }
}
