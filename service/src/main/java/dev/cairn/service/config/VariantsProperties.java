package dev.cairn.service.config;

import static dev.cairn.service.config.CairnProperties.require;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.util.unit.DataSize;

/** Image variants, {@code cairn.variants.*} (docs/variants.md); each default is written here once. */
public class VariantsProperties {
    /**
     * The imgix secure URL token: a variant request's {@code s} must be the hex MD5 of it, the
     * path and {@code ?} with the query without {@code s}. None: only presets are served.
     */
    private String secureToken;
    /** Named option sets, {@code name: "w=320&h=240&fit=crop"}, asked for as {@code ?preset=name}. */
    private Map<String, String> presets = new LinkedHashMap<>(Map.of(
            "thumb", "w=160&h=160&fit=crop",
            "card", "w=480&h=320&fit=crop",
            "hero", "w=1600&fit=max"));
    /** Buckets whose objects' presets are served without a signature. */
    private List<String> unsignedPresetBuckets = List.of();
    /** Sources larger than this are not rendered (413). */
    private DataSize maxSourceSize = DataSize.ofMegabytes(32);
    /** Sources of more pixels than this (width × height, as the header declares) are not rendered. */
    private long maxSourcePixels = 50_000_000L;
    /** The largest width or height a variant may have, after {@code dpr}. */
    private int maxOutputDimension = 4096;
    /** Renders at once; more wait for a turn. */
    private int maxConcurrentRenders = 4;
    /** Disk for rendered variants under {@code <data-dir>/variants}; least recently used go first; 0: none kept. */
    private DataSize cacheSize = DataSize.ofGigabytes(1);
    /** How often the variants of content no object holds any more are removed; 0: never (they go by eviction). */
    private java.time.Duration sweepInterval = java.time.Duration.ofHours(1);

    public java.time.Duration getSweepInterval() {
        return sweepInterval;
    }

    public void setSweepInterval(java.time.Duration v) {
        sweepInterval = v;
    }

    /** Memory for the most used variants, in front of the disk; 0: none (every hit reads the disk). */
    private DataSize memoryCacheSize = DataSize.ofMegabytes(64);

    public DataSize getMemoryCacheSize() {
        return memoryCacheSize;
    }

    public void setMemoryCacheSize(DataSize v) {
        memoryCacheSize = v;
    }

    public String getSecureToken() {
        return secureToken;
    }

    public void setSecureToken(String v) {
        secureToken = v == null || v.isEmpty() ? null : v;
    }

    public Map<String, String> getPresets() {
        return presets;
    }

    public void setPresets(Map<String, String> v) {
        presets = new LinkedHashMap<>(v);
    }

    public List<String> getUnsignedPresetBuckets() {
        return unsignedPresetBuckets;
    }

    public void setUnsignedPresetBuckets(List<String> v) {
        unsignedPresetBuckets = List.copyOf(v);
    }

    public DataSize getMaxSourceSize() {
        return maxSourceSize;
    }

    public void setMaxSourceSize(DataSize v) {
        maxSourceSize = v;
    }

    public long getMaxSourcePixels() {
        return maxSourcePixels;
    }

    public void setMaxSourcePixels(long v) {
        maxSourcePixels = v;
    }

    public int getMaxOutputDimension() {
        return maxOutputDimension;
    }

    public void setMaxOutputDimension(int v) {
        maxOutputDimension = v;
    }

    public int getMaxConcurrentRenders() {
        return maxConcurrentRenders;
    }

    public void setMaxConcurrentRenders(int v) {
        maxConcurrentRenders = v;
    }

    public DataSize getCacheSize() {
        return cacheSize;
    }

    public void setCacheSize(DataSize v) {
        cacheSize = v;
    }

    void validate() {
        require(maxSourceSize.toBytes() > 0 && maxSourceSize.toBytes() <= Integer.MAX_VALUE - 64,
                "cairn.variants.max-source-size must be in (0, 2GB)");
        require(maxSourcePixels > 0, "cairn.variants.max-source-pixels must be positive");
        require(maxOutputDimension >= 1 && maxOutputDimension <= 16384,
                "cairn.variants.max-output-dimension must be in [1, 16384]");
        require(maxConcurrentRenders >= 1, "cairn.variants.max-concurrent-renders must be at least 1");
        require(cacheSize.toBytes() >= 0, "cairn.variants.cache-size must not be negative");
        require(!sweepInterval.isNegative(), "cairn.variants.sweep-interval must not be negative");
        require(memoryCacheSize.toBytes() >= 0, "cairn.variants.memory-cache-size must not be negative");
        for (Map.Entry<String, String> p : presets.entrySet()) {
            require(p.getKey().matches("[A-Za-z0-9_-]+"), "cairn.variants.presets: bad preset name '" + p.getKey() + "'");
            require(p.getValue() != null && !p.getValue().isBlank() && !p.getValue().contains("preset="),
                    "cairn.variants.presets." + p.getKey() + " must be a query string of variant options");
        }
    }
}
