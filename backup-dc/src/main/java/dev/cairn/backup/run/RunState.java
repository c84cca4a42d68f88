package dev.cairn.backup.run;

import java.util.List;

/**
 * A backup run in progress, as recorded in the target ({@code runs/<id>/run.json}); its splits'
 * progress is recorded beside it, one file per split.
 */
public record RunState(String id, String parent, long startedMillis, String source, List<SplitRecord> splits,
                       String resumeKey) {

    /** The key an unfinished run is matched by; its description when it recorded none. */
    public String resumeKeyOrSource() {
        return resumeKey != null ? resumeKey : source;
    }

    /**
     * The blobs one attempt at the run wrote into the archive so far (in sealed packs, or alone)
     * and their bytes, recorded as it works: a run's copies are those of all its attempts, also
     * of the ones killed before the rows naming their copies were recorded.
     */
    public record Attempt(long copiedBlobs, long copiedBytes) {
    }

    /** A split as the source named it. */
    public record SplitRecord(String id, String description) {
    }

    /**
     * How far a split got: every row up to {@code position} is in its {@code chunks} row chunks
     * and every blob those rows name is in the target.
     */
    public record SplitProgress(String position, int chunks, long rows, long logicalBytes, long copiedBlobs,
                                long copiedBytes, long skipped, boolean done) {
        public static final SplitProgress START = new SplitProgress(null, 0, 0, 0, 0, 0, 0, false);
    }
}
