package dev.cairn.store.cassandra;

import java.time.Duration;
import org.springframework.util.unit.DataSize;

/**
 * The row cache in front of the Cassandra store, bound under {@code cairn.cassandra.cache.*}
 * (docs/cassandra.md, "The row cache").
 *
 * <p>Thread-safety: a mutable bean, filled once at startup and read afterwards.
 */
public class CassandraCacheSettings {
    public static final DataSize DEFAULT_MEMORY_SIZE = DataSize.ofMegabytes(256);
    public static final DataSize DEFAULT_SSD_SIZE = DataSize.ofBytes(0);
    public static final DataSize DEFAULT_SEGMENT_SIZE = DataSize.ofMegabytes(64);
    public static final DataSize DEFAULT_MAX_CONTENT_SIZE = DataSize.ofMegabytes(1);
    public static final String DEFAULT_REDIS_ADDRESS = "127.0.0.1:6379";
    public static final String DEFAULT_REDIS_CHANNEL = "cairn:invalidations";
    public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(2);

    /** How a write on one node reaches the caches of the others. */
    public enum Invalidation {
        /** This node's writes only: for a single service node. */
        LOCAL,
        /** Redis pub/sub: every node announces its writes and hears the others'. */
        REDIS
    }

    /** Memory for object rows and content; 0 turns the cache off. */
    private DataSize memorySize = DEFAULT_MEMORY_SIZE;
    /** The SSD tier under {@code <data-dir>/cassandra-row-cache}; 0: memory only. */
    private DataSize ssdSize = DEFAULT_SSD_SIZE;
    /** One SSD segment file; the SSD tier holds at least two. */
    private DataSize segmentSize = DEFAULT_SEGMENT_SIZE;
    /** Content up to this size is cached by its SHA-256; larger content always comes from Cassandra. */
    private DataSize maxContentSize = DEFAULT_MAX_CONTENT_SIZE;
    private Invalidation invalidation = Invalidation.LOCAL;
    /** host:port of the Redis server, with {@code invalidation: redis}. */
    private String redisAddress = DEFAULT_REDIS_ADDRESS;
    /** The pub/sub channel every node of one deployment shares. */
    private String redisChannel = DEFAULT_REDIS_CHANNEL;
    /**
     * Connect timeout, and how long the subscription may stay silent (it is pinged four times
     * as often) before cached rows are bypassed: the bound on staleness after a silent drop.
     */
    private Duration redisTimeout = DEFAULT_REDIS_TIMEOUT;

    public DataSize getMemorySize() {
        return memorySize;
    }

    public void setMemorySize(DataSize v) {
        memorySize = v;
    }

    public DataSize getSsdSize() {
        return ssdSize;
    }

    public void setSsdSize(DataSize v) {
        ssdSize = v;
    }

    public DataSize getSegmentSize() {
        return segmentSize;
    }

    public void setSegmentSize(DataSize v) {
        segmentSize = v;
    }

    public DataSize getMaxContentSize() {
        return maxContentSize;
    }

    public void setMaxContentSize(DataSize v) {
        maxContentSize = v;
    }

    public Invalidation getInvalidation() {
        return invalidation;
    }

    public void setInvalidation(Invalidation v) {
        invalidation = v;
    }

    public String getRedisAddress() {
        return redisAddress;
    }

    public void setRedisAddress(String v) {
        redisAddress = v;
    }

    public String getRedisChannel() {
        return redisChannel;
    }

    public void setRedisChannel(String v) {
        redisChannel = v;
    }

    public Duration getRedisTimeout() {
        return redisTimeout;
    }

    public void setRedisTimeout(Duration v) {
        redisTimeout = v;
    }

    public boolean enabled() {
        return memorySize.toBytes() > 0;
    }

    void validate() {
        require(memorySize.toBytes() == 0 || memorySize.toBytes() >= 1024,
                "cairn.cassandra.cache.memory-size must be 0 or at least 1KB");
        require(segmentSize.toBytes() >= 4096, "cairn.cassandra.cache.segment-size must be at least 4KB");
        require(ssdSize.toBytes() == 0 || ssdSize.toBytes() >= 2 * segmentSize.toBytes(),
                "cairn.cassandra.cache.ssd-size must be 0 or hold two segments");
        require(maxContentSize.toBytes() >= 0 && maxContentSize.toBytes() <= (64L << 20),
                "cairn.cassandra.cache.max-content-size must be in [0, 64MB]");
        require(invalidation != null, "cairn.cassandra.cache.invalidation must be local or redis");
        int colon = redisAddress == null ? -1 : redisAddress.lastIndexOf(':');
        require(colon > 0 && redisAddress.substring(colon + 1).matches("[0-9]{1,5}"),
                "cairn.cassandra.cache.redis-address is host:port, got '" + redisAddress + "'");
        require(redisChannel != null && !redisChannel.isBlank(), "cairn.cassandra.cache.redis-channel must be set");
        require(redisTimeout != null && redisTimeout.toMillis() >= 10,
                "cairn.cassandra.cache.redis-timeout must be at least 10ms");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new InvalidStoreSettingException("invalid setting: " + message);
        }
    }
}
