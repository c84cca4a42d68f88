package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.ChunkStream;
import dev.cairn.store.ContentRead;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.Listing;
import dev.cairn.store.MultipartAssembly;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.PartInfo;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreStats;
import dev.cairn.store.StoreUnavailableException;
import dev.cairn.store.UploadInfo;
import dev.cairn.store.Utf8Order;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * An {@link ObjectStore} on Apache Cassandra. docs/cassandra.md describes the tables, every
 * query, and why references stay exact without counters; in short:
 *
 * <ul>
 *   <li>An object row is one blob cell written with an explicit timestamp taken from its
 *       {@link WriteId}, so concurrent writes of a key never mix and the greatest write id wins.
 *   <li>Before a row is written, its write is recorded twice: in {@code writes} under the key
 *       and in {@code refs} under the content's digest. After the row is written, every recorded
 *       write that can no longer win is removed from both; content is reclaimed when its
 *       {@code refs} partition is empty. Every step is an idempotent insert or delete.
 *   <li>Reclamation marks the content's generations doomed, then looks for references again;
 *       a writer records its reference before it looks for content and skips doomed
 *       generations, so either the reclaimer sees the reference or the writer sees the mark.
 *   <li>Listing reads a directory index sharded over {@link CassandraSchema#DIRECTORY_SHARDS}
 *       partitions per directory ({@link DirectoryIndex}).
 * </ul>
 *
 * <p>Errors of the cluster (a node down, a timeout) surface as {@link StoreUnavailableException}.
 *
 * <p>Thread-safety: safe for concurrent use; all state is in Cassandra except counters and a
 * cache of directory markers already written.
 */
public final class CassandraObjectStore implements ObjectStore {
    static final int KIND_OBJECT = 0;
    static final int KIND_PART = 1;
    static final int KIND_READ = 2;
    /** A reader's lease on multi-chunk content expires after this if the reader never closes. */
    static final int READ_LEASE_TTL_SECONDS = 24 * 3600;
    private static final int MAX_MARKER_CACHE = 100_000;
    private static final int WRITES_IN_FLIGHT = 4;
    private static final int MAX_READ_ATTEMPTS = 8;
    /** While a reclaimer withdraws its doom mark, a reader holding a lease waits this long between looks. */
    private static final long DOOM_WAIT_MILLIS = 20;
    private static final int DOOM_WAITS = 100;
    private static final int PUBLIC_CHECK_LIMIT = 1000;

    private final CqlSession session;
    private final boolean ownsSession;
    private final ConsistencyLevel writeCl;
    private final ConsistencyLevel readCl;
    /** Reads that the reference protocol relies on always see every acknowledged write. */
    private final ConsistencyLevel protocolCl = DefaultConsistencyLevel.LOCAL_QUORUM;
    private final WriteId.Generator ids = new WriteId.Generator();
    private final SecureRandom random = new SecureRandom();
    private final Set<String> markersWritten = ConcurrentHashMap.newKeySet();
    private final AtomicLong logicalBytes = new AtomicLong();
    private final AtomicLong physicalBytes = new AtomicLong();
    final Statements q;
    final DirectoryIndex directory;

    /**
     * A store on an open session. {@code ownsSession}: close the session with the store.
     * The keyspace must exist ({@link #open} creates it).
     */
    public CassandraObjectStore(CqlSession session, boolean ownsSession, CassandraSettings settings) {
        this.session = session;
        this.ownsSession = ownsSession;
        this.writeCl = DefaultConsistencyLevel.valueOf(settings.getWriteConsistency().name());
        this.readCl = DefaultConsistencyLevel.valueOf(settings.getReadConsistency().name());
        this.q = new Statements(session, settings.getKeyspace());
        this.directory = new DirectoryIndex(this);
    }

    /** Connects, creates or verifies the schema, and returns a store that owns its session. */
    public static CassandraObjectStore open(CassandraSettings settings) throws IOException {
        settings.validate();
        CqlSession session;
        try {
            session = CassandraSessions.connect(settings);
        } catch (DriverException e) {
            throw new StoreUnavailableException("cannot connect to Cassandra at " + settings.getContactPoints()
                    + " (datacenter " + settings.getLocalDatacenter() + "): " + e.getMessage(), e);
        }
        try {
            if (settings.isCreateSchema()) {
                CassandraSchema.create(session, settings.getKeyspace(), settings.getReplication(), settings.getSchemaTimeout());
            }
            CassandraSchema.verify(session, settings.getKeyspace());
            return new CassandraObjectStore(session, true, settings);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** Creates the keyspace and tables of {@code settings} where missing. */
    public static void createSchema(CqlSession session, CassandraSettings settings) {
        CassandraSchema.create(session, settings.getKeyspace(), settings.getReplication(), settings.getSchemaTimeout());
    }

    /** The names of the store's tables. */
    public static List<String> tables() {
        return CassandraSchema.TABLE_NAMES;
    }

    CqlSession session() {
        return session;
    }

    // ---------------------------------------------------------------- buckets

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl) throws IOException {
        return guard(() -> {
            BucketInfo info = new BucketInfo(bucket, System.currentTimeMillis(), acl);
            ResultSet rs = session.execute(write(q.insertBucket.bind(bucket, info.createdMillis(), acl.code())));
            if (!rs.wasApplied()) {
                throw new StoreException(StoreException.Reason.BUCKET_EXISTS, bucket);
            }
            return info;
        });
    }

    @Override
    public BucketInfo bucket(String bucket) throws IOException {
        return guard(() -> readBucket(bucket));
    }

    private BucketInfo readBucket(String bucket) {
        Row r = session.execute(read(q.selectBucket.bind(bucket))).one();
        return r == null ? null : new BucketInfo(bucket, r.getLong("created"), BucketAcl.ofCode(r.getInt("acl")));
    }

    private BucketInfo requireBucket(String bucket) throws StoreException {
        BucketInfo b = readBucket(bucket);
        if (b == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
        return b;
    }

    @Override
    public List<BucketInfo> listBuckets() throws IOException {
        return guard(() -> {
            List<BucketInfo> all = new ArrayList<>();
            for (Row r : session.execute(read(q.selectBuckets.bind()))) {
                all.add(new BucketInfo(r.getString("name"), r.getLong("created"), BucketAcl.ofCode(r.getInt("acl"))));
            }
            all.sort(Comparator.comparing(BucketInfo::name, Utf8Order.COMPARATOR));
            return List.copyOf(all);
        });
    }

    @Override
    public void setBucketAcl(String bucket, BucketAcl acl) throws IOException {
        guard(() -> {
            if (!session.execute(write(q.updateBucketAcl.bind(acl.code(), bucket))).wasApplied()) {
                throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
            }
            return null;
        });
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        guard(() -> {
            requireBucket(bucket);
            try (Listing.Cursor c = directory.seeker(bucket, "").seek("", Listing.From.AT)) {
                if (c.hasNext()) {
                    throw new StoreException(StoreException.Reason.BUCKET_NOT_EMPTY, bucket);
                }
            }
            for (Row r : session.execute(protocol(q.selectUploads.bind(bucket)))) {
                dropUpload(bucket, r.getString("key"), r.getString("upload_id"));
            }
            if (!session.execute(write(q.deleteBucket.bind(bucket))).wasApplied()) {
                throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
            }
            return null;
        });
    }

    // ---------------------------------------------------------------- objects

    @Override
    public ObjectInfo putObject(String bucket, String key, ObjectAttributes attributes, ContentSource content,
                                String etag, int partCount, Map<String, String> checksums, boolean onlyIfAbsent)
            throws IOException {
        return guard(() -> {
            requireBucket(bucket);
            return writeObject(bucket, key, attributes, content, etag, partCount, checksums, onlyIfAbsent);
        });
    }

    private ObjectInfo writeObject(String bucket, String key, ObjectAttributes attributes, ContentSource content,
                                   String etag, int partCount, Map<String, String> checksums, boolean onlyIfAbsent)
            throws IOException {
        if (onlyIfAbsent && readObject(bucket, key, protocolCl) != null) {
            throw new StoreException(StoreException.Reason.PRECONDITION_FAILED, key + " exists");
        }
        directory.writeMarkers(bucket, key);
        WriteId wid = ids.next();
        recordWrite(bucket, KIND_OBJECT, key, wid, content.sha256());
        Stored stored = storeContent(content);
        ObjectInfo info = new ObjectInfo(key, content.sha256(), content.size(), etag, attributes,
                wid.timestampMicros() / 1000, partCount, checksums);
        ByteBuffer row = RowFormat.encodeObject(wid, stored.generation, info);
        DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
        long ts = wid.timestampMicros();
        BatchStatement batch = BatchStatement.newInstance(BatchType.LOGGED,
                q.insertObject.bind(bucket, key, row).setQueryTimestamp(ts),
                q.insertEntry.bind(bucket, entry.dir(), entry.shard(), entry.name(), row).setQueryTimestamp(ts));
        // A batch carries one timestamp for all its statements: theirs are ignored.
        session.execute(batch.setQueryTimestamp(ts).setConsistencyLevel(writeCl).setIdempotent(true));
        settleObject(bucket, key, wid);
        logicalBytes.addAndGet(content.size());
        if (stored.fresh) {
            physicalBytes.addAndGet(content.size());
        }
        return info;
    }

    /** After writing: removes the recorded writes of this key that can no longer win. */
    private void settleObject(String bucket, String key, WriteId mine) {
        // Read in parallel: whatever the order, a write ordered before the row's can never win.
        CompletableFuture<AsyncResultSet> writes = session.executeAsync(
                protocol(q.selectWrites.bind(bucket, KIND_OBJECT, key))).toCompletableFuture();
        RowFormat.Stored<ObjectInfo> current = readObject(bucket, key, protocolCl);
        Iterable<Row> recorded = allRows(join(writes));
        if (current == null) {
            // A delete with a timestamp at or after this write shadows it.
            releaseWrites(bucket, KIND_OBJECT, key, w -> w.timestampMicros() <= mine.timestampMicros(), recorded);
        } else {
            WriteId winner = current.writeId();
            releaseWrites(bucket, KIND_OBJECT, key, w -> w.compareTo(winner) < 0, recorded);
        }
    }

    /** Every row of an async result, fetching further pages as needed. */
    private static List<Row> allRows(AsyncResultSet rs) {
        List<Row> rows = new ArrayList<>();
        for (AsyncResultSet page = rs; ; page = join(page.fetchNextPage().toCompletableFuture())) {
            page.currentPage().forEach(rows::add);
            if (!page.hasMorePages()) {
                return rows;
            }
        }
    }

    RowFormat.Stored<ObjectInfo> readObject(String bucket, String key, ConsistencyLevel cl) {
        Row r = session.execute(q.selectObject.bind(bucket, key).setConsistencyLevel(cl).setIdempotent(true)).one();
        return r == null ? null : RowFormat.decodeObject(key, r.getByteBuffer("row"));
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) throws IOException {
        return guard(() -> {
            RowFormat.Stored<ObjectInfo> row = readObject(bucket, key, readCl);
            if (row == null) {
                requireBucket(bucket);
                return null;
            }
            return row.value();
        });
    }

    @Override
    public ObjectRead getObject(String bucket, String key) throws IOException {
        return guard(() -> {
            ConsistencyLevel cl = readCl;
            for (int attempt = 1; ; attempt++) {
                RowFormat.Stored<ObjectInfo> row = readObject(bucket, key, cl);
                if (row == null) {
                    requireBucket(bucket);
                    return null;
                }
                ObjectInfo info = row.value();
                ChunkedContent content = openContent(info.sha256(), row.generation(), info.size());
                if (content != null) {
                    return new StoredObject(info, content);
                }
                // The row read is older than the content's reclamation: read it again at quorum.
                if (attempt == MAX_READ_ATTEMPTS) {
                    throw new StoreUnavailableException("the content of " + bucket + "/" + key
                            + " changed during " + attempt + " reads", null);
                }
                cl = protocolCl;
                pause(attempt);
            }
        });
    }

    @Override
    public ObjectInfo deleteObject(String bucket, String key) throws IOException {
        return guard(() -> {
            RowFormat.Stored<ObjectInfo> old = readObject(bucket, key, protocolCl);
            if (old == null) {
                requireBucket(bucket);
                return null;
            }
            long ts = ids.nextMicros();
            DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
            BatchStatement batch = BatchStatement.newInstance(BatchType.LOGGED,
                    q.deleteObject.bind(bucket, key).setQueryTimestamp(ts),
                    q.deleteEntry.bind(bucket, entry.dir(), entry.shard(), entry.name()).setQueryTimestamp(ts));
            session.execute(batch.setQueryTimestamp(ts).setConsistencyLevel(writeCl).setIdempotent(true));
            releaseWrites(bucket, KIND_OBJECT, key, w -> w.timestampMicros() <= ts);
            return old.value();
        });
    }

    @Override
    public ListPage listObjects(String bucket, ListQuery query) throws IOException {
        return guard(() -> {
            requireBucket(bucket);
            return Listing.page(query, directory.seeker(bucket, query.prefix()));
        });
    }

    ConsistencyLevel readConsistency() {
        return readCl;
    }

    // ---------------------------------------------------------------- content by digest

    @Override
    public ContentRead getContent(String sha256) throws IOException {
        return guard(() -> {
            if (!Hex.isSha256(sha256) || !isHeld(sha256)) {
                return null;
            }
            for (Row r : session.execute(protocol(q.selectGenerations.bind(sha256)))) {
                if (usable(r)) {
                    ChunkedContent c = openContent(sha256, r.getUuid("generation"), r.getLong("size"));
                    if (c != null) {
                        return c;
                    }
                }
            }
            return null;
        });
    }

    private boolean isHeld(String sha256) {
        return session.execute(protocol(q.selectHolder.bind(sha256))).one() != null;
    }

    @Override
    public boolean isContentPublic(String sha256) throws IOException {
        return guard(() -> {
            if (!Hex.isSha256(sha256)) {
                return false;
            }
            Map<String, Boolean> publicBuckets = new HashMap<>();
            int seen = 0;
            for (Row r : session.execute(protocol(q.selectObjectRefs.bind(sha256)))) {
                if (++seen > PUBLIC_CHECK_LIMIT) {
                    return false;
                }
                String bucket = r.getString("bucket");
                boolean isPublic = publicBuckets.computeIfAbsent(bucket, b -> {
                    BucketInfo info = readBucket(b);
                    return info != null && info.acl() == BucketAcl.PUBLIC_READ;
                });
                if (isPublic) {
                    RowFormat.Stored<ObjectInfo> row = readObject(bucket, r.getString("slot"), protocolCl);
                    if (row != null && row.value().sha256().equals(sha256)) {
                        return true;
                    }
                }
            }
            return false;
        });
    }

    // ---------------------------------------------------------------- multipart

    @Override
    public UploadInfo createUpload(String bucket, String key, ObjectAttributes attributes) throws IOException {
        return guard(() -> {
            requireBucket(bucket);
            byte[] id = new byte[16];
            random.nextBytes(id);
            UploadInfo u = new UploadInfo(bucket, key, Hex.encode(id), attributes, System.currentTimeMillis());
            session.execute(write(q.insertUpload.bind(bucket, key, u.uploadId(),
                    RowFormat.encodeUpload(attributes, u.initiatedMillis()))));
            return u;
        });
    }

    @Override
    public UploadInfo upload(String bucket, String key, String uploadId) throws IOException {
        return guard(() -> requireUpload(bucket, key, uploadId));
    }

    private UploadInfo requireUpload(String bucket, String key, String uploadId) throws StoreException {
        requireBucket(bucket);
        Row r = session.execute(protocol(q.selectUpload.bind(bucket, key, uploadId))).one();
        if (r == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
        }
        RowFormat.UploadRow u = RowFormat.decodeUpload(r.getByteBuffer("row"));
        return new UploadInfo(bucket, key, uploadId, u.attributes(), u.initiatedMillis());
    }

    @Override
    public PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource content)
            throws IOException {
        return guard(() -> {
            requireUpload(bucket, key, uploadId);
            String slot = partSlot(uploadId, partNumber);
            WriteId wid = ids.next();
            recordWrite(bucket, KIND_PART, slot, wid, content.sha256());
            Stored stored = storeContent(content);
            String md5 = content.md5() != null ? content.md5() : stored.md5 != null ? stored.md5 : ContentSource.md5Of(content);
            PartInfo part = new PartInfo(partNumber, content.sha256(), content.size(), md5, wid.timestampMicros() / 1000);
            session.execute(write(q.insertPart.bind(uploadId, partNumber,
                    RowFormat.encodePart(wid, stored.generation, part))).setQueryTimestamp(wid.timestampMicros()));
            Row current = session.execute(protocol(q.selectPart.bind(uploadId, partNumber))).one();
            if (current == null) {
                releaseWrites(bucket, KIND_PART, slot, w -> w.timestampMicros() <= wid.timestampMicros());
            } else {
                WriteId winner = RowFormat.writeIdOf(current.getByteBuffer("row"));
                releaseWrites(bucket, KIND_PART, slot, w -> w.compareTo(winner) < 0);
            }
            if (session.execute(protocol(q.selectUpload.bind(bucket, key, uploadId))).one() == null) {
                // Aborted or completed meanwhile: this part must not stay referenced.
                dropPart(bucket, uploadId, partNumber);
                throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
            }
            return part;
        });
    }

    @Override
    public List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws IOException {
        return guard(() -> {
            requireUpload(bucket, key, uploadId);
            List<PartInfo> out = new ArrayList<>();
            for (Row r : session.execute(protocol(q.selectPartsAfter.bind(uploadId, afterPart, maxParts)))) {
                out.add(RowFormat.decodePart(r.getInt("part_number"), r.getByteBuffer("row")).value());
            }
            return List.copyOf(out);
        });
    }

    @Override
    public List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker,
                                        int max) throws IOException {
        return guard(() -> {
            requireBucket(bucket);
            String p = prefix == null ? "" : prefix;
            BoundStatement st;
            if (keyMarker != null && uploadIdMarker != null) {
                st = q.selectUploadsAfterId.bind(bucket, keyMarker, uploadIdMarker);
            } else if (keyMarker != null && Utf8Order.compare(keyMarker, p) >= 0) {
                st = q.selectUploadsAfterKey.bind(bucket, keyMarker);
            } else {
                st = q.selectUploadsFrom.bind(bucket, p);
            }
            List<UploadInfo> out = new ArrayList<>();
            for (Row r : session.execute(protocol(st))) {
                String k = r.getString("key");
                if (Utf8Order.compare(k, p) < 0) {
                    continue;
                }
                if (!k.startsWith(p) || out.size() == max) {
                    break;
                }
                RowFormat.UploadRow u = RowFormat.decodeUpload(r.getByteBuffer("row"));
                out.add(new UploadInfo(bucket, k, r.getString("upload_id"), u.attributes(), u.initiatedMillis()));
            }
            return List.copyOf(out);
        });
    }

    @Override
    public ObjectInfo completeUpload(String bucket, String key, String uploadId, List<CompletedPart> requested,
                                     long minPartSize) throws IOException {
        return completeUpload(bucket, key, uploadId, requested, minPartSize, false, null, null, Map.of());
    }

    @Override
    public ObjectInfo completeUpload(String bucket, String key, String uploadId, List<CompletedPart> requested,
                                     long minPartSize, boolean onlyIfAbsent, String ifMatch,
                                     ObjectAttributes attributes, Map<String, String> checksums) throws IOException {
        if (onlyIfAbsent || ifMatch != null) {
            throw new UnsupportedOperationException("conditional completion");
        }
        return guard(() -> {
            UploadInfo u = requireUpload(bucket, key, uploadId);
            Map<Integer, PartInfo> parts = new TreeMap<>();
            Map<String, UUID> generations = new HashMap<>();
            for (Row r : session.execute(protocol(q.selectParts.bind(uploadId)))) {
                RowFormat.Stored<PartInfo> p = RowFormat.decodePart(r.getInt("part_number"), r.getByteBuffer("row"));
                parts.put(p.value().partNumber(), p.value());
                generations.put(p.value().sha256(), p.generation());
            }
            List<PartInfo> chosen = MultipartAssembly.select(requested, parts, minPartSize);
            ContentSource whole = MultipartAssembly.concatenate(chosen, (sha, size) -> {
                ChunkedContent c = openContent(sha, generations.get(sha), size);
                if (c == null) {
                    throw new StoreException(StoreException.Reason.CONTENT_GONE, "part content " + sha);
                }
                return c.openAll();
            });
            requireUpload(bucket, key, uploadId);
            ObjectInfo info = writeObject(bucket, key, attributes == null ? u.attributes() : attributes, whole,
                    MultipartAssembly.etag(chosen), chosen.size(), checksums, false);
            dropUpload(bucket, key, uploadId);
            return info;
        });
    }

    @Override
    public void abortUpload(String bucket, String key, String uploadId) throws IOException {
        guard(() -> {
            requireUpload(bucket, key, uploadId);
            dropUpload(bucket, key, uploadId);
            return null;
        });
    }

    private void dropUpload(String bucket, String key, String uploadId) throws IOException {
        session.execute(write(q.deleteUpload.bind(bucket, key, uploadId)));
        for (Row r : session.execute(protocol(q.selectParts.bind(uploadId)))) {
            dropPart(bucket, uploadId, r.getInt("part_number"));
        }
    }

    private void dropPart(String bucket, String uploadId, int partNumber) throws IOException {
        long ts = ids.nextMicros();
        session.execute(write(q.deletePart.bind(uploadId, partNumber)).setQueryTimestamp(ts));
        releaseWrites(bucket, KIND_PART, partSlot(uploadId, partNumber), w -> w.timestampMicros() <= ts);
    }

    private static String partSlot(String uploadId, int partNumber) {
        return uploadId + "/" + partNumber;
    }

    // ---------------------------------------------------------------- references and reclamation

    /** Records a write under its slot and under its content, before the row is written. */
    private void recordWrite(String bucket, int kind, String slot, WriteId wid, String sha256) {
        all(List.of(
                write(q.insertWrite.bind(bucket, kind, slot, wid.buffer(), sha256)),
                write(q.insertRef.bind(sha256, kind, bucket, slot, wid.buffer()))));
    }

    /** Removes the recorded writes of a slot that {@code dead} says can never be the row again. */
    private void releaseWrites(String bucket, int kind, String slot, Predicate<WriteId> dead) throws IOException {
        releaseWrites(bucket, kind, slot, dead, session.execute(protocol(q.selectWrites.bind(bucket, kind, slot))));
    }

    private void releaseWrites(String bucket, int kind, String slot, Predicate<WriteId> dead, Iterable<Row> writes) {
        Set<String> released = new LinkedHashSet<>();
        for (Row r : writes) {
            WriteId w = WriteId.of(r.getByteBuffer("wid"));
            if (dead.test(w)) {
                String sha = r.getString("sha256");
                session.execute(write(q.deleteRef.bind(sha, kind, bucket, slot, w.buffer())));
                session.execute(write(q.deleteWrite.bind(bucket, kind, slot, w.buffer())));
                released.add(sha);
            }
        }
        for (String sha : released) {
            reclaim(sha);
        }
    }

    /**
     * Deletes content nothing references. Marks every generation doomed, then checks the
     * references again: a writer that recorded its reference too late for that check looks for
     * content after the mark was written, sees it and stores a new generation.
     */
    void reclaim(String sha256) {
        if (session.execute(protocol(q.selectAnyRef.bind(sha256))).one() != null) {
            return;
        }
        List<Row> generations = new ArrayList<>();
        session.execute(protocol(q.selectGenerations.bind(sha256))).forEach(generations::add);
        if (generations.isEmpty()) {
            return;
        }
        UUID doom = Uuids.timeBased();
        List<Statement<?>> marks = new ArrayList<>();
        for (Row g : generations) {
            marks.add(write(q.addDoom.bind(Set.of(doom), sha256, g.getUuid("generation"))));
        }
        all(marks);
        if (session.execute(protocol(q.selectAnyRef.bind(sha256))).one() != null) {
            List<Statement<?>> unmarks = new ArrayList<>();
            for (Row g : generations) {
                unmarks.add(write(q.removeDoom.bind(Set.of(doom), sha256, g.getUuid("generation"))));
            }
            all(unmarks);
            return;
        }
        for (Row g : generations) {
            UUID gen = g.getUuid("generation");
            long size = g.isNull("size") ? 0 : g.getLong("size");
            List<Statement<?>> deletes = new ArrayList<>();
            for (int i = 0; (long) i * CassandraSchema.CHUNK_BYTES < size; i++) {
                deletes.add(write(q.deleteChunk.bind(sha256, gen, i)));
            }
            all(deletes);
            session.execute(write(q.deleteGeneration.bind(sha256, gen)));
        }
    }

    private static boolean usable(Row g) {
        return !g.isNull("size") && !g.isNull("complete") && g.getBoolean("complete")
                && g.getSet("dooms", UUID.class).isEmpty();
    }

    /** Where content was found or put, whether it was new, and its MD5 when it was read. */
    private record Stored(UUID generation, boolean fresh, String md5) {
    }

    /** Finds a usable generation of the content or stores a new one. The caller holds a reference. */
    private Stored storeContent(ContentSource content) throws IOException {
        String sha = content.sha256();
        for (Row r : session.execute(protocol(q.selectGenerations.bind(sha)))) {
            if (usable(r) && r.getLong("size") == content.size()) {
                return new Stored(r.getUuid("generation"), false, null);
            }
        }
        UUID gen = Uuids.timeBased();
        MessageDigest sha256 = digest("SHA-256");
        MessageDigest md5 = digest("MD5");
        List<CompletableFuture<AsyncResultSet>> inFlight = new ArrayList<>();
        // Until marked complete the generation is not used, so its row and chunks go in parallel.
        inFlight.add(session.executeAsync(write(q.insertGeneration.bind(sha, gen, content.size(),
                CassandraSchema.CHUNK_BYTES))).toCompletableFuture());
        long total = 0;
        try (InputStream in = content.open()) {
            for (int index = 0; ; index++) {
                byte[] chunk = in.readNBytes(CassandraSchema.CHUNK_BYTES);
                if (chunk.length == 0) {
                    break;
                }
                total += chunk.length;
                if (total > content.size()) {
                    break;
                }
                sha256.update(chunk);
                md5.update(chunk);
                if (inFlight.size() == WRITES_IN_FLIGHT) {
                    join(inFlight.remove(0));
                }
                inFlight.add(session.executeAsync(write(q.insertChunk.bind(sha, gen, index, ByteBuffer.wrap(chunk))))
                        .toCompletableFuture());
            }
        }
        for (CompletableFuture<AsyncResultSet> f : inFlight) {
            join(f);
        }
        if (total != content.size() || !Hex.encode(sha256.digest()).equals(sha)) {
            throw new IOException("content offered as " + sha + " (" + content.size() + " bytes) does not match its bytes");
        }
        session.execute(write(q.completeGeneration.bind(sha, gen)));
        return new Stored(gen, true, Hex.encode(md5.digest()));
    }

    // ---------------------------------------------------------------- reading content

    /**
     * Opens a generation of content. One chunk is read at once; larger content is read lazily
     * under a lease (a reference of kind {@link #KIND_READ}) so that it is not reclaimed while
     * open. Null when the generation is gone or doomed.
     */
    private ChunkedContent openContent(String sha, UUID gen, long size) {
        if (size <= CassandraSchema.CHUNK_BYTES) {
            if (size == 0) {
                return new ChunkedContent(sha, gen, size, new byte[0], null);
            }
            byte[] first = readChunk(sha, gen, 0, size, readCl);
            if (first == null) {
                first = readChunk(sha, gen, 0, size, protocolCl);
            }
            return first == null ? null : new ChunkedContent(sha, gen, size, first, null);
        }
        String leaseSlot = Hex.encode(Uuids.timeBased().toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        WriteId lease = ids.next();
        session.execute(write(q.insertLease.bind(sha, leaseSlot, lease.buffer(), READ_LEASE_TTL_SECONDS)));
        // A doom mark seen now belongs to a reclaimer that will see the lease and withdraw it,
        // or that passed its check before the lease and deletes the generation.
        for (int i = 0; i < DOOM_WAITS; i++) {
            Row g = session.execute(protocol(q.selectGeneration.bind(sha, gen))).one();
            if (g == null || g.isNull("size") || g.isNull("complete") || !g.getBoolean("complete")) {
                break;
            }
            if (g.getSet("dooms", UUID.class).isEmpty()) {
                return new ChunkedContent(sha, gen, size, null, new Lease(leaseSlot, lease));
            }
            pause(1);
        }
        releaseLease(sha, leaseSlot, lease);
        return null;
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(DOOM_WAIT_MILLIS * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading content", e);
        }
    }

    private record Lease(String slot, WriteId id) {
    }

    private void releaseLease(String sha, String slot, WriteId lease) {
        session.execute(write(q.deleteRef.bind(sha, KIND_READ, "", slot, lease.buffer())));
        reclaim(sha);
    }

    /** A chunk's bytes, or null when absent; throws when present with the wrong length. */
    private byte[] readChunk(String sha, UUID gen, int index, long size, ConsistencyLevel cl) {
        Row r = session.execute(q.selectChunk.bind(sha, gen, index).setConsistencyLevel(cl).setIdempotent(true)).one();
        if (r == null) {
            return null;
        }
        ByteBuffer b = r.getByteBuffer("data");
        long expected = Math.min(CassandraSchema.CHUNK_BYTES, size - (long) index * CassandraSchema.CHUNK_BYTES);
        if (b == null || b.remaining() != expected) {
            throw new IllegalStateException("chunk " + index + " of " + sha + " has "
                    + (b == null ? 0 : b.remaining()) + " bytes, expected " + expected);
        }
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    /** Content of one generation; the first chunk in memory or a lease for lazy reads. Not thread-safe. */
    private class ChunkedContent implements ContentRead {
        private final String sha;
        private final UUID gen;
        private final long size;
        private final byte[] whole;
        private Lease lease;

        ChunkedContent(String sha, UUID gen, long size, byte[] whole, Lease lease) {
            this.sha = sha;
            this.gen = gen;
            this.size = size;
            this.whole = whole;
            this.lease = lease;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public InputStream open(long offset, long length) throws IOException {
            if (offset < 0 || length < 0 || offset + length > size) {
                throw new IllegalArgumentException("range [" + offset + ", " + (offset + length) + ") outside " + size);
            }
            if (whole != null) {
                return new ByteArrayInputStream(whole, (int) offset, (int) length);
            }
            return new ChunkStream(CassandraSchema.CHUNK_BYTES, offset, offset + length, this::fetch);
        }

        @Override
        public void close() {
            if (lease != null) {
                Lease l = lease;
                lease = null;
                try {
                    releaseLease(sha, l.slot(), l.id());
                } catch (DriverException e) {
                    // The lease expires by itself; reclamation then happens at the next release.
                }
            }
        }

        private byte[] fetch(int index) throws IOException {
            try {
                byte[] c = readChunk(sha, gen, index, size, readCl);
                if (c == null) {
                    c = readChunk(sha, gen, index, size, protocolCl);
                }
                if (c == null) {
                    throw new IOException("chunk " + index + " of content " + sha + " generation " + gen + " is missing");
                }
                return c;
            } catch (DriverException e) {
                throw unavailable(e);
            }
        }
    }

    private final class StoredObject extends ChunkedContent implements ObjectRead {
        private final ObjectInfo info;

        StoredObject(ObjectInfo info, ChunkedContent c) {
            super(c.sha, c.gen, c.size, c.whole, c.lease);
            this.info = info;
        }

        @Override
        public ObjectInfo info() {
            return info;
        }

        @Override
        public long size() {
            return info.size();
        }
    }


    // ---------------------------------------------------------------- plumbing

    @Override
    public StoreStats stats() {
        return new StoreStats(logicalBytes.get(), physicalBytes.get());
    }

    @Override
    public void close() {
        if (ownsSession) {
            session.close();
        }
    }

    boolean markerWritten(String marker) {
        if (markersWritten.size() > MAX_MARKER_CACHE) {
            markersWritten.clear();
        }
        return !markersWritten.add(marker);
    }

    <S extends Statement<S>> S write(S st) {
        return st.setConsistencyLevel(writeCl).setIdempotent(true);
    }

    <S extends Statement<S>> S read(S st) {
        return st.setConsistencyLevel(readCl).setIdempotent(true);
    }

    <S extends Statement<S>> S protocol(S st) {
        return st.setConsistencyLevel(protocolCl).setIdempotent(true);
    }

    /** Runs statements concurrently and waits for all. */
    void all(List<? extends Statement<?>> statements) {
        List<CompletableFuture<AsyncResultSet>> futures = new ArrayList<>(statements.size());
        for (Statement<?> st : statements) {
            futures.add(session.executeAsync(st).toCompletableFuture());
        }
        for (CompletableFuture<AsyncResultSet> f : futures) {
            join(f);
        }
    }

    static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }

    interface Body<T> {
        T run() throws IOException;
    }

    static <T> T guard(Body<T> body) throws IOException {
        try {
            return body.run();
        } catch (DriverException e) {
            throw unavailable(e);
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    static StoreUnavailableException unavailable(DriverException e) {
        return new StoreUnavailableException("Cassandra: " + e.getMessage(), e);
    }

    static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JDK", e);
        }
    }
}
