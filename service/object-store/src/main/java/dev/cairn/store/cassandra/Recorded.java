package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded write: a row of {@code writes} within its slot; {@code stamp}: the timestamp of
 * that row ({@code writetime}), {@link Long#MAX_VALUE} when not known.
 */
record Recorded(WriteId wid, String sha256, long stamp) {
    Recorded(WriteId wid, String sha256) {
        this(wid, sha256, Long.MAX_VALUE);
    }

    static List<Recorded> all(Iterable<Row> rows) {
        List<Recorded> out = new ArrayList<>();
        for (Row r : rows) {
            boolean stamped = r.getColumnDefinitions().contains("ts") && !r.isNull("ts");
            out.add(new Recorded(WriteId.of(r.getByteBuffer("wid")), r.getString("sha256"),
                    stamped ? r.getLong("ts") : Long.MAX_VALUE));
        }
        return out;
    }

    /**
     * One range tombstone over a slot's {@code writes}: every row ordered before {@code below}
     * stamped at or before {@code stamp}. The caller guarantees that each such write can never be
     * the row again, and takes {@code stamp} before it reads the slot's writes: a row the read
     * returned is covered when its stamp is at or before it; a row it did not return is covered
     * only if stamped before the read began (a record in flight, whose writer releases it itself
     * when it finds its write lost, or the sweep does); a record stamped later, however small its
     * write id (a slow or restoring writer), stays and is found by the next settle.
     * docs/cassandra-internals.md, "Content, settling and release".
     */
    record Range(WriteId below, long stamp) {
        boolean covers(Recorded w) {
            return w.wid().compareTo(below) < 0 && w.stamp() <= stamp;
        }
    }
}
