package dev.cairn.store.cassandra;

import dev.cairn.store.ContentGoneException;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ChunkStream;
import dev.cairn.store.ContentGoneException;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.Utf8Order;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Reads the Cassandra store's rows for full traversals such as backups: the buckets, the object
 * rows of a token range in ring order (a multipart object's with its part sizes, one more read),
 * and content by digest. Strictly read-only — it takes no
 * read lease and writes nothing — so it can run on a session confined to a datacenter that takes
 * no traffic. Rows are decoded by the store's own {@link RowFormat}.
 *
 * <p>Within one token, Cassandra orders partitions by their serialized composite key compared as
 * unsigned bytes; {@link #compositeKey} computes that form so a scan can resume after any row.
 *
 * <p>Thread-safety: safe for concurrent use; the session is the caller's.
 */
public final class CassandraScanner {
    private final CqlSession session;
    private final ConsistencyLevel consistency;
    private final int pageSize;
    private final PreparedStatement selectBuckets;
    private final PreparedStatement selectRange;
    private final PreparedStatement selectToken;
    private final PreparedStatement selectGenerations;
    private final PreparedStatement selectChunk;
    private final PreparedStatement selectLayout;

    /**
     * One object row with its place in the ring.
     *
     * @param writeId   the row's write id, opaque ({@link CassandraVersionScanner#unlistedCurrent})
     * @param partSizes of a multipart object, read from table {@code layouts}; null when the row is
     *                  not multipart or no layout of this write is recorded
     */
    public record ScannedRow(long token, String bucket, ObjectInfo info, byte[] writeId, long[] partSizes) {
    }

    /** Receives scanned rows in ring order. */
    @FunctionalInterface
    public interface RowVisitor {
        void visit(ScannedRow row) throws IOException;
    }

    public CassandraScanner(CqlSession session, String keyspace, ConsistencyLevel consistency, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be at least 1, got " + pageSize);
        }
        this.session = session;
        this.consistency = consistency;
        this.pageSize = pageSize;
        String objects = keyspace + ".objects";
        selectBuckets = session.prepare("SELECT name, created, acl, versioning, documents FROM " + keyspace + ".buckets");
        selectRange = session.prepare("SELECT token(bucket, key) AS t, bucket, key, row FROM " + objects
                + " WHERE token(bucket, key) > ? AND token(bucket, key) <= ?");
        selectToken = session.prepare("SELECT token(bucket, key) AS t, bucket, key, row FROM " + objects
                + " WHERE token(bucket, key) = ?");
        selectGenerations = session.prepare("SELECT generation, size, complete, dooms FROM " + keyspace
                + ".contents WHERE sha256 = ?");
        selectChunk = session.prepare("SELECT data FROM " + keyspace
                + ".chunks WHERE sha256 = ? AND generation = ? AND chunk = ?");
        selectLayout = session.prepare("SELECT row FROM " + keyspace + ".layouts WHERE bucket = ? AND key = ?");
    }

    static long[] layoutOf(CqlSession session, PreparedStatement selectLayout, ConsistencyLevel consistency,
                           String bucket, ObjectInfo info, WriteId writeId) throws IOException {
        if (info.partCount() == 0) {
            return null;
        }
        try {
            Row r = session.execute(selectLayout.bind(bucket, info.key()).setConsistencyLevel(consistency)
                    .setIdempotent(true)).one();
            return r == null ? null : PartLayout.sizesOf(r.getByteBuffer("row"), info, writeId);
        } catch (DriverException e) {
            throw CassandraTables.unavailable(e);
        } catch (IllegalStateException | java.nio.BufferUnderflowException malformed) {
            throw new IOException("bucket " + bucket + ", key " + info.key() + ": " + malformed.getMessage(), malformed);
        }
    }

    /** Every bucket, in UTF-8 order of names. */
    public List<BucketInfo> buckets() throws IOException {
        try {
            List<BucketInfo> all = new ArrayList<>();
            for (Row r : session.execute(read(selectBuckets.bind()))) {
                all.add(CassandraBuckets.of(r.getString("name"), r));
            }
            all.sort(Comparator.comparing(BucketInfo::name, Utf8Order.COMPARATOR));
            return all;
        } catch (DriverException e) {
            throw CassandraTables.unavailable(e);
        }
    }

    /**
     * Visits the object rows whose token lies in ({@code startExclusive}, {@code endInclusive}],
     * paged, in ring order. With {@code afterToken} set, starts after the row at that token whose
     * {@link #compositeKey} is {@code afterKey}: rows of that same token with a greater composite
     * key first, then the tokens after it.
     */
    public void scan(long startExclusive, long endInclusive, Long afterToken, byte[] afterKey, RowVisitor visitor)
            throws IOException {
        scan(startExclusive, endInclusive, afterToken, afterKey, visitor, node -> { });
    }

    /**
     * {@link #scan(long, long, Long, byte[], RowVisitor)}, telling {@code answeredBy} the node
     * that coordinated each page read, once per page, after the rows of its query.
     */
    public void scan(long startExclusive, long endInclusive, Long afterToken, byte[] afterKey, RowVisitor visitor,
                     Consumer<Node> answeredBy) throws IOException {
        long from = startExclusive;
        if (afterToken != null) {
            if (afterToken <= startExclusive || afterToken > endInclusive) {
                throw new IllegalArgumentException("resume token " + afterToken + " outside (" + startExclusive
                        + ", " + endInclusive + "]");
            }
            List<ScannedRow> same = new ArrayList<>();
            List<byte[]> keys = new ArrayList<>();
            run(selectToken.bind(afterToken), answeredBy, row -> {
                byte[] k = compositeKey(row.bucket(), row.info().key());
                if (java.util.Arrays.compareUnsigned(k, afterKey) > 0) {
                    same.add(row);
                    keys.add(k);
                }
            });
            Integer[] order = new Integer[same.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (a, b) -> java.util.Arrays.compareUnsigned(keys.get(a), keys.get(b)));
            for (int i : order) {
                visitor.visit(same.get(i));
            }
            from = afterToken;
        }
        if (from < endInclusive) {
            run(selectRange.bind(from, endInclusive), answeredBy, visitor);
        }
    }

    private void run(BoundStatement statement, Consumer<Node> answeredBy, RowVisitor visitor) throws IOException {
        try {
            ResultSet rows = session.execute(read(statement));
            for (Row r : rows) {
                String bucket = r.getString("bucket");
                String key = r.getString("key");
                ByteBuffer blob = r.getByteBuffer("row");
                if (blob == null) {
                    continue;
                }
                RowFormat.Stored<ObjectInfo> info;
                try {
                    info = RowFormat.decodeObject(key, blob);
                } catch (IllegalStateException malformed) {
                    throw new IOException("bucket " + bucket + ": " + malformed.getMessage(), malformed);
                }
                visitor.visit(new ScannedRow(r.getLong("t"), bucket, info.value(), info.writeId().bytes(),
                        layoutOf(session, selectLayout, consistency, bucket, info.value(), info.writeId())));
            }
            answeredByEachPage(rows, answeredBy);
        } catch (DriverException e) {
            throw CassandraTables.unavailable(e);
        }
    }

    static void answeredByEachPage(ResultSet rows, Consumer<Node> answeredBy) {
        for (ExecutionInfo page : rows.getExecutionInfos()) {
            answeredBy.accept(page.getCoordinator());
        }
    }

    /**
     * The content with this digest from its first complete, undoomed generation, read chunk by
     * chunk as the stream is consumed; null when the store holds none. Content reclaimed while
     * it is read (its objects were all deleted meanwhile) fails the read with an IOException.
     */
    public InputStream openContent(String sha256) throws IOException {
        try {
            UUID generation = null;
            long size = -1;
            for (Row g : session.execute(read(selectGenerations.bind(sha256)))) {
                if (!g.isNull("size") && !g.isNull("complete") && g.getBoolean("complete")
                        && g.getSet("dooms", UUID.class).isEmpty()) {
                    generation = g.getUuid("generation");
                    size = g.getLong("size");
                    break;
                }
            }
            if (generation == null) {
                return null;
            }
            if (size == 0) {
                return new ByteArrayInputStream(new byte[0]);
            }
            UUID gen = generation;
            long total = size;
            return new ChunkStream(CassandraSchema.CHUNK_BYTES, 0, size, index -> chunk(sha256, gen, index, total));
        } catch (DriverException e) {
            throw CassandraTables.unavailable(e);
        }
    }

    private byte[] chunk(String sha256, UUID generation, int index, long size) throws IOException {
        Row r;
        try {
            r = session.execute(read(selectChunk.bind(sha256, generation, index))).one();
        } catch (DriverException e) {
            throw CassandraTables.unavailable(e);
        }
        long expected = Math.min(CassandraSchema.CHUNK_BYTES, size - (long) index * CassandraSchema.CHUNK_BYTES);
        ByteBuffer b = r == null ? null : r.getByteBuffer("data");
        if (b == null) {
            throw new ContentGoneException("chunk " + index + " of content " + sha256 + " is gone (reclaimed during the read?)");
        }
        if (b.remaining() != expected) {
            throw new IOException("chunk " + index + " of content " + sha256 + " has " + b.remaining()
                    + " bytes, expected " + expected);
        }
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    private BoundStatement read(BoundStatement s) {
        return s.setConsistencyLevel(consistency).setPageSize(pageSize).setIdempotent(true);
    }

    /**
     * The serialized partition key of an object row, as Cassandra compares partitions of equal
     * token: per component a 2-byte length, the UTF-8 bytes, and a 0 end-of-component byte.
     */
    public static byte[] compositeKey(String bucket, String key) {
        byte[] b = bucket.getBytes(StandardCharsets.UTF_8);
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(b.length + k.length + 6);
        out.putShort((short) b.length).put(b).put((byte) 0);
        out.putShort((short) k.length).put(k).put((byte) 0);
        return out.array();
    }
}
