package dev.cairn.service.config;

import static dev.cairn.service.config.CairnProperties.require;

import org.springframework.util.unit.DataSize;

/** Request limits; each answers with its S3 error when exceeded. */
public class LimitsProperties {
    /** Largest object or part body (EntityTooLarge). S3's single PUT limit is 5 GiB. */
    private DataSize maxObjectSize = DataSize.ofGigabytes(5);
    /** Keys one DeleteObjects request may name (MalformedXML above it, as S3). */
    private int maxDeleteKeys = 1000;
    /** Highest part number of a multipart upload. */
    private int maxParts = 10000;
    /** Smallest part other than the last (EntityTooSmall). S3 uses 5 MiB. */
    private DataSize minPartSize = DataSize.ofMegabytes(5);
    /** Largest request line and headers together; larger requests get 431. */
    private DataSize maxHeaderSize = DataSize.ofKilobytes(16);
    /** Largest XML request body (DeleteObjects, CompleteMultipartUpload, ACLs). */
    private DataSize maxXmlBodySize = DataSize.ofMegabytes(2);
    /** Upload bodies up to this size are held in memory; larger ones spool to a file. */
    private DataSize spoolMemoryThreshold = DataSize.ofKilobytes(256);
    /**
     * Memory for upload bodies held in memory, all requests together; a body that finds it
     * spent spools to a file whatever its size.
     */
    private DataSize spoolMemoryBudget = DataSize.ofMegabytes(64);
    /**
     * Answers of more than 1 MiB streamed from the store at once; more are refused with 503
     * SlowDown, so that slow readers cannot hold every request thread.
     */
    private int maxStreamingReads = 100;
    /**
     * Memory for answers of 1 MiB or less read from the store and written without holding a
     * thread, all slow readers together; past it such answers are written holding their
     * thread, as larger ones are. Answers from the object cache share its bytes and count them once.
     */
    private DataSize pendingAnswerBytes = DataSize.ofMegabytes(64);

    public DataSize getMaxObjectSize() {
        return maxObjectSize;
    }

    public void setMaxObjectSize(DataSize v) {
        maxObjectSize = v;
    }

    public int getMaxDeleteKeys() {
        return maxDeleteKeys;
    }

    public void setMaxDeleteKeys(int v) {
        maxDeleteKeys = v;
    }

    public int getMaxParts() {
        return maxParts;
    }

    public void setMaxParts(int v) {
        maxParts = v;
    }

    public DataSize getMinPartSize() {
        return minPartSize;
    }

    public void setMinPartSize(DataSize v) {
        minPartSize = v;
    }

    public DataSize getMaxHeaderSize() {
        return maxHeaderSize;
    }

    public void setMaxHeaderSize(DataSize v) {
        maxHeaderSize = v;
    }

    public DataSize getMaxXmlBodySize() {
        return maxXmlBodySize;
    }

    public void setMaxXmlBodySize(DataSize v) {
        maxXmlBodySize = v;
    }

    public DataSize getSpoolMemoryThreshold() {
        return spoolMemoryThreshold;
    }

    public void setSpoolMemoryThreshold(DataSize v) {
        spoolMemoryThreshold = v;
    }

    public int getMaxStreamingReads() {
        return maxStreamingReads;
    }

    public void setMaxStreamingReads(int v) {
        maxStreamingReads = v;
    }

    public DataSize getPendingAnswerBytes() {
        return pendingAnswerBytes;
    }

    public void setPendingAnswerBytes(DataSize v) {
        pendingAnswerBytes = v;
    }

    public DataSize getSpoolMemoryBudget() {
        return spoolMemoryBudget;
    }

    public void setSpoolMemoryBudget(DataSize v) {
        spoolMemoryBudget = v;
    }

    void validate() {
        require(maxObjectSize.toBytes() > 0, "cairn.limits.max-object-size must be positive");
        require(maxDeleteKeys >= 1, "cairn.limits.max-delete-keys must be at least 1");
        require(maxParts >= 1 && maxParts <= 10000, "cairn.limits.max-parts must be in [1, 10000]");
        require(minPartSize.toBytes() >= 0, "cairn.limits.min-part-size must not be negative");
        require(maxHeaderSize.toBytes() >= 1024, "cairn.limits.max-header-size must be at least 1KB");
        require(maxXmlBodySize.toBytes() >= 1024, "cairn.limits.max-xml-body-size must be at least 1KB");
        require(spoolMemoryThreshold.toBytes() >= 0 && spoolMemoryThreshold.toBytes() <= (64L << 20),
                "cairn.limits.spool-memory-threshold must be in [0, 64MB]");
        require(spoolMemoryBudget.toBytes() >= 0, "cairn.limits.spool-memory-budget must not be negative");
        require(maxStreamingReads >= 1, "cairn.limits.max-streaming-reads must be at least 1");
        require(pendingAnswerBytes.toBytes() >= 0, "cairn.limits.pending-answer-bytes must not be negative");
    }
}
