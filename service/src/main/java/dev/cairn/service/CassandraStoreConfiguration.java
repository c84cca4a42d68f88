package dev.cairn.service;

import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import dev.cairn.store.cassandra.CassandraCacheSettings;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.RedisInvalidationChannel;
import dev.cairn.store.RowCachingObjectStore;
import java.io.IOException;
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
     * The store itself, for what only it can tell (the cluster's nodes). Not an
     * {@link ObjectStore} bean: requests go through {@link #cassandraObjectStore}, which closes it.
     */
    public record CassandraBackend(CassandraObjectStore store) {
    }

    @Bean(destroyMethod = "")
    public CassandraBackend cassandraBackend(CairnProperties props) throws IOException {
        props.validate();
        return new CassandraBackend(CassandraObjectStore.open(props.getCassandra()));
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
}
