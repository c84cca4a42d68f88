package dev.cairn.service.config;

import static dev.cairn.service.config.CairnProperties.require;

import org.springframework.util.unit.DataSize;

/** The service's hot object cache, in front of the store (the engine keeps its own caches). */
public class CacheProperties {
    /** Memory for whole small objects (row and bytes); 0 disables the cache. */
    private DataSize objectCacheSize = DataSize.ofMegabytes(256);
    /** Objects up to this size are cached; larger ones always stream from the store. */
    private DataSize maxCachedObjectSize = DataSize.ofMegabytes(1);

    public DataSize getObjectCacheSize() {
        return objectCacheSize;
    }

    public void setObjectCacheSize(DataSize v) {
        objectCacheSize = v;
    }

    public DataSize getMaxCachedObjectSize() {
        return maxCachedObjectSize;
    }

    public void setMaxCachedObjectSize(DataSize v) {
        maxCachedObjectSize = v;
    }

    void validate() {
        require(objectCacheSize.toBytes() >= 0, "cairn.cache.object-cache-size must not be negative");
        require(maxCachedObjectSize.toBytes() >= 0 && maxCachedObjectSize.toBytes() <= (64L << 20),
                "cairn.cache.max-cached-object-size must be in [0, 64MB]");
    }
}
