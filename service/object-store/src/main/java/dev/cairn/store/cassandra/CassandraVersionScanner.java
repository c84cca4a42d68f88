package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Reads the rows of table {@code versions} (docs/cassandra-internals.md, "Versioning") for full traversals
 * such as backups: every version of every key whose token lies in a range, in ring order, a key's
 * versions together and newest first (the table's clustering order), each with its 12-byte sort
 * id as its place. Strictly read-only, like {@link CassandraScanner}, whose token ranges and
 * composite keys it shares.
 *
 * <p>A current row written before its bucket was versioned has no {@code versions} row until
 * its key changes; {@link #unlistedCurrent} tells such a row from the scan of {@code objects}.
 *
 * <p>Thread-safety: safe for concurrent use; the session is the caller's.
 */
public final class CassandraVersionScanner {
    private static final String COLUMNS = "SELECT token(bucket, key) AS t, bucket, key, sort, row, layout,"
            + " writetime(row) AS ts FROM ";

    private final CqlSession session;
    private final ConsistencyLevel consistency;
    private final int pageSize;
    private final PreparedStatement selectRange;
    private final PreparedStatement selectToken;
    private final PreparedStatement selectKeyAfter;
    private final PreparedStatement selectNewest;
    private final PreparedStatement selectLayout;

    /** One version with its place in the ring: the token of its key. */
    public record ScannedVersion(long token, String bucket, VersionRecord version) {
    }

    /** Receives scanned versions in ring order. */
    @FunctionalInterface
    public interface VersionVisitor {
        void visit(ScannedVersion version) throws IOException;
    }

    public CassandraVersionScanner(CqlSession session, String keyspace, ConsistencyLevel consistency, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be at least 1, got " + pageSize);
        }
        this.session = session;
        this.consistency = consistency;
        this.pageSize = pageSize;
        String versions = keyspace + ".versions";
        selectRange = session.prepare(COLUMNS + versions + " WHERE token(bucket, key) > ? AND token(bucket, key) <= ?");
        selectToken = session.prepare(COLUMNS + versions + " WHERE token(bucket, key) = ?");
        selectKeyAfter = session.prepare(COLUMNS + versions + " WHERE bucket = ? AND key = ? AND sort > ?");
        selectNewest = session.prepare(COLUMNS + versions + " WHERE bucket = ? AND key = ? LIMIT 1");
        selectLayout = session.prepare("SELECT row FROM " + keyspace + ".layouts WHERE bucket = ? AND key = ?");
    }

    /**
     * Visits the versions of the keys of {@code buckets} whose token lies in ({@code startExclusive},
     * {@code endInclusive}], paged, in ring order. With {@code afterToken} set, starts after the
     * version at place {@code afterSort} of the key whose {@link CassandraScanner#compositeKey} is
     * {@code afterKey}: its older versions first, then the keys of that token after it, then the
     * tokens after it.
     */
    public void scan(long startExclusive, long endInclusive, Long afterToken, byte[] afterKey, byte[] afterSort,
                     Predicate<String> buckets, VersionVisitor visitor) throws IOException {
        scan(startExclusive, endInclusive, afterToken, afterKey, afterSort, buckets, visitor, node -> { });
    }

    /**
     * {@link #scan(long, long, Long, byte[], byte[], Predicate, VersionVisitor)}, telling
     * {@code answeredBy} the node that coordinated each page read, once per page.
     */
    public void scan(long startExclusive, long endInclusive, Long afterToken, byte[] afterKey, byte[] afterSort,
                     Predicate<String> buckets, VersionVisitor visitor, Consumer<Node> answeredBy) throws IOException {
        long from = startExclusive;
        if (afterToken != null) {
            if (afterToken <= startExclusive || afterToken > endInclusive) {
                throw new IllegalArgumentException("resume token " + afterToken + " outside (" + startExclusive
                        + ", " + endInclusive + "]");
            }
            String[] bucketAndKey = partsOf(afterKey);
            if (buckets.test(bucketAndKey[0])) {
                run(selectKeyAfter.bind(bucketAndKey[0], bucketAndKey[1], ByteBuffer.wrap(afterSort)), buckets, answeredBy,
                        visitor);
            }
            List<List<ScannedVersion>> later = new ArrayList<>();
            List<byte[]> keys = new ArrayList<>();
            run(selectToken.bind(afterToken), buckets, answeredBy, v -> {
                byte[] k = CassandraScanner.compositeKey(v.bucket(), v.version().version().key());
                if (Arrays.compareUnsigned(k, afterKey) > 0) {
                    if (keys.isEmpty() || !Arrays.equals(keys.get(keys.size() - 1), k)) {
                        keys.add(k);
                        later.add(new ArrayList<>());
                    }
                    later.get(later.size() - 1).add(v);
                }
            });
            Integer[] order = new Integer[later.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys.get(a), keys.get(b)));
            for (int i : order) {
                for (ScannedVersion v : later.get(i)) {
                    visitor.visit(v);
                }
            }
            from = afterToken;
        }
        if (from < endInclusive) {
            run(selectRange.bind(from, endInclusive), buckets, answeredBy, visitor);
        }
    }

    /**
     * The current row of a versioned bucket's key as the version {@code null} without place, when
     * {@code versions} does not list it (it was written before the bucket was versioned and its
     * key has not changed since); null when its newest {@code versions} row is that row. Reads
     * that row only for a current row without version id (the version {@code null}).
     *
     * @param writeId the row's {@link CassandraScanner.ScannedRow#writeId}
     */
    public VersionRecord unlistedCurrent(String bucket, ObjectInfo current, byte[] writeId) throws IOException {
        if (current.versionId() != null && !VersionId.NULL.equals(current.versionId())) {
            return null; // a cell with an id is written in one batch with its versions row
        }
        try {
            Row newest = session.execute(read(selectNewest.bind(bucket, current.key()))).one();
            if (newest != null && VersionRows.decode(current.key(), newest).wid().equals(new WriteId(writeId))) {
                return null;
            }
            ObjectInfo info = current.versionId() == null ? current.withVersionId(VersionId.NULL) : current;
            long[] sizes = CassandraScanner.layoutOf(session, selectLayout, consistency, bucket, current,
                    new WriteId(writeId));
            return new VersionRecord(ObjectVersion.of(info, true), null, sizes);
        } catch (DriverException e) {
            throw CassandraTables.unavailable(e);
        } catch (IllegalStateException malformed) {
            throw new IOException("bucket " + bucket + ": " + malformed.getMessage(), malformed);
        }
    }

    private void run(BoundStatement statement, Predicate<String> buckets, Consumer<Node> answeredBy,
                     VersionVisitor visitor) throws IOException {
        try {
            String lastBucket = null;
            String lastKey = null;
            ResultSet rows = session.execute(read(statement));
            for (Row r : rows) {
                String bucket = r.getString("bucket");
                if (!buckets.test(bucket)) {
                    continue;
                }
                String key = r.getString("key");
                VersionRows.Stored v;
                try {
                    v = VersionRows.decode(key, r);
                } catch (IllegalStateException malformed) {
                    throw new IOException("bucket " + bucket + ": " + malformed.getMessage(), malformed);
                }
                boolean newest = !(bucket.equals(lastBucket) && key.equals(lastKey));
                lastBucket = bucket;
                lastKey = key;
                ObjectVersion version = v.version(key, newest);
                long[] sizes = v.marker() || v.layout() == null ? null : PartLayout.sizesOf(v.layout(), version.info(), v.wid());
                visitor.visit(new ScannedVersion(r.getLong("t"), bucket, new VersionRecord(version, v.sort(), sizes)));
            }
            CassandraScanner.answeredByEachPage(rows, answeredBy);
        } catch (DriverException e) {
            throw CassandraTables.unavailable(e);
        }
    }

    private BoundStatement read(BoundStatement s) {
        return s.setConsistencyLevel(consistency).setPageSize(pageSize).setIdempotent(true);
    }

    /** The bucket and key of a {@link CassandraScanner#compositeKey}. */
    static String[] partsOf(byte[] compositeKey) {
        ByteBuffer b = ByteBuffer.wrap(compositeKey);
        String[] out = new String[2];
        for (int i = 0; i < 2; i++) {
            int length = b.getShort() & 0xffff;
            out[i] = new String(compositeKey, b.position(), length, StandardCharsets.UTF_8);
            b.position(b.position() + length);
            if (b.get() != 0) {
                throw new IllegalArgumentException("not a composite key of bucket and key");
            }
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("not a composite key of bucket and key");
        }
        return out;
    }
}
