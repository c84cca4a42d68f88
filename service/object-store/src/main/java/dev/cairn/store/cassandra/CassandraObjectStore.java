package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.ContentRead;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.PartInfo;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreStats;
import dev.cairn.store.StoreUnavailableException;
import dev.cairn.store.UploadInfo;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionListing;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An {@link ObjectStore} on Apache Cassandra. docs/cassandra-internals.md describes the tables, every
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
 * <p>The store is split into rooms, as the embedded store is:
 *
 * <table>
 *   <caption>Rooms</caption>
 *   <tr><td>{@link CassandraBuckets}</td><td>buckets</td></tr>
 *   <tr><td>{@link CassandraObjects}, {@link CassandraKeys}, {@link DirectoryIndex}, {@link RowFormat}</td><td>object rows and the key layout</td></tr>
 *   <tr><td>{@link CassandraContent}</td><td>content, recorded references and reclamation</td></tr>
 *   <tr><td>{@link CassandraMultipart}</td><td>multipart uploads</td></tr>
 *   <tr><td>{@link CassandraVersions}, {@link VersionRows}, {@link CassandraVersionListing}</td><td>object versions of versioned buckets</td></tr>
 *   <tr><td>{@link CassandraReaders}</td><td>reading content: chunk readers under leases</td></tr>
 *   <tr><td>{@link CassandraTables}, {@link Statements}, {@link CassandraSchema}</td><td>the session, the queries and the tables</td></tr>
 * </table>
 *
 * <p>Errors of the cluster (a node down, a timeout) surface as {@link StoreUnavailableException}.
 *
 * <p>Thread-safety: safe for concurrent use; all state is in Cassandra except counters and a
 * cache of directory markers already written.
 */
public final class CassandraObjectStore implements ObjectStore {
    private final CassandraTables tables;
    private final boolean ownsSession;
    private final CassandraBuckets buckets;
    private final CassandraContent content;
    private final CassandraReaders readers;
    private final CassandraObjects objects;
    private final CassandraMultipart multipart;
    private final CassandraRestore restore;
    private final Settler settler = new Settler();
    private final SettleAccounts settling;

    /**
     * A store on an open session. {@code ownsSession}: close the session with the store.
     * The keyspace must exist ({@link #open} creates it).
     */
    public CassandraObjectStore(CqlSession session, boolean ownsSession, CassandraSettings settings) {
        this(session, ownsSession, settings, Clock.systemUTC());
    }

    /** As {@link #CassandraObjectStore(CqlSession, boolean, CassandraSettings)}, dating writes, uploads and buckets by {@code clock}. */
    public CassandraObjectStore(CqlSession session, boolean ownsSession, CassandraSettings settings, Clock clock) {
        this.ownsSession = ownsSession;
        tables = new CassandraTables(session, settings, clock);
        buckets = new CassandraBuckets(tables, settings.getBucketCacheTtl());
        content = new CassandraContent(tables, buckets);
        readers = new CassandraReaders(tables, content);
        objects = new CassandraObjects(tables, buckets, content, readers, new DirectoryIndex(tables), settler,
                new KeyLocks(tables, settings.getRequestTimeout()));
        multipart = new CassandraMultipart(tables, buckets, content, readers, objects);
        restore = new CassandraRestore(tables, buckets, content, objects.versions(), objects.directory(), settler);
        settling = new SettleAccounts(settler, objects, content);
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

    // ---- buckets

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl) throws IOException {
        return createBucket(bucket, acl, tables.clock.millis());
    }

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl, long createdMillis) throws IOException {
        return CassandraTables.guard(() -> buckets.create(bucket, acl, createdMillis));
    }

    @Override
    public BucketInfo bucket(String bucket) throws IOException {
        return CassandraTables.guard(() -> buckets.get(bucket));
    }

    @Override
    public List<BucketInfo> listBuckets() throws IOException {
        return CassandraTables.guard(buckets::list);
    }

    @Override
    public void setBucketDocument(dev.cairn.store.BucketDocument document) throws IOException {
        CassandraTables.guard(() -> {
            buckets.setDocument(document);
            return null;
        });
    }

    @Override
    public void setBucketAcl(String bucket, BucketAcl acl) throws IOException {
        CassandraTables.guard(() -> {
            buckets.setAcl(bucket, acl);
            return null;
        });
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        CassandraTables.guard(() -> {
            buckets.delete(bucket, b -> {
                objects.requireNone(b);
                multipart.abortAll(b);
            });
            return null;
        });
    }

    // ---- objects

    @Override
    public ObjectInfo putObject(PutRequest request) throws IOException {
        return CassandraTables.guard(() -> objects.write(request));
    }

    @Override
    public long[] partSizes(String bucket, String key, ObjectInfo info) throws IOException {
        return CassandraTables.guard(() -> objects.partSizes(bucket, key, info));
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) throws IOException {
        return CassandraTables.guard(() -> objects.head(bucket, key));
    }

    @Override
    public ObjectRead getObject(String bucket, String key) throws IOException {
        return CassandraTables.guard(() -> objects.get(bucket, key));
    }

    @Override
    public void forgetBucket(String bucket) {
        buckets.forget(bucket);
    }

    @Override
    public String nullVersionName(String bucket) throws IOException {
        return CassandraTables.guard(() -> objects.nullVersionName(bucket));
    }

    @Override
    public ObjectInfo deleteObject(String bucket, String key) throws IOException {
        return CassandraTables.guard(() -> {
            if (buckets.require(bucket).versioning() == Versioning.UNVERSIONED) {
                return objects.delete(bucket, key);
            }
            ObjectInfo hidden = objects.head(bucket, key);
            deleteObjectVersion(bucket, key, null);
            return hidden;
        });
    }

    // ---- versions (docs/cassandra-internals.md, "Versioning")

    @Override
    public void setBucketVersioning(String bucket, Versioning versioning) throws IOException {
        CassandraTables.guard(() -> {
            buckets.setVersioning(bucket, versioning);
            return null;
        });
    }

    @Override
    public ObjectVersion objectVersion(String bucket, String key, String versionId) throws IOException {
        return CassandraTables.guard(() -> {
            if (buckets.require(bucket).versioning() == Versioning.UNVERSIONED) {
                ObjectInfo o = objects.head(bucket, key);
                return o != null && VersionId.NULL.equals(versionId) ? ObjectVersion.of(o, true) : null;
            }
            return objects.versions().objectVersion(bucket, key, versionId);
        });
    }

    @Override
    public ObjectRead getObjectVersion(String bucket, String key, String versionId) throws IOException {
        return CassandraTables.guard(() -> {
            if (buckets.require(bucket).versioning() == Versioning.UNVERSIONED) {
                return VersionId.NULL.equals(versionId) ? objects.get(bucket, key) : null;
            }
            return objects.versions().read(bucket, key, versionId);
        });
    }

    @Override
    public ObjectVersion currentDeleteMarker(String bucket, String key) throws IOException {
        return CassandraTables.guard(() -> buckets.require(bucket).versioning() == Versioning.UNVERSIONED ? null
                : objects.versions().currentDeleteMarker(bucket, key));
    }

    @Override
    public ObjectVersion deleteObjectVersion(String bucket, String key, String versionId) throws IOException {
        return CassandraTables.guard(() -> {
            Versioning versioning = buckets.require(bucket).versioning();
            if (versioning == Versioning.UNVERSIONED) {
                if (versionId != null && !VersionId.NULL.equals(versionId)) {
                    return null;
                }
                ObjectInfo removed = objects.delete(bucket, key);
                return removed == null ? null : ObjectVersion.of(removed, true);
            }
            return versionId == null ? objects.versions().addMarker(bucket, key, versioning)
                    : objects.versions().deleteVersion(bucket, key, versionId);
        });
    }

    @Override
    public VersionPage listObjectVersions(String bucket, VersionQuery query) throws IOException {
        return CassandraTables.guard(() -> {
            if (buckets.require(bucket).versioning() == Versioning.UNVERSIONED) {
                return VersionListing.ofCurrentObjects(this, bucket, query);
            }
            return VersionListing.page(query, CassandraVersionListing.seeker(tables, bucket, objects.directory(),
                    objects.versions().versionKeys()));
        });
    }

    @Override
    public ObjectInfo setObjectAcl(String bucket, String key, BucketAcl acl) throws IOException {
        if (CassandraTables.guard(() -> buckets.require(bucket).versioning()) == Versioning.UNVERSIONED) {
            return ObjectStore.super.setObjectAcl(bucket, key, acl);
        }
        return CassandraTables.guard(() -> objects.versions().setAcl(bucket, key, null, acl));
    }

    @Override
    public boolean restoresVersions() {
        return true;
    }

    /** The versions of one key of a versioned bucket under one lease ({@link CassandraRestore#restoreKey}). */
    @Override
    public void restoreVersions(String bucket, List<VersionRecord> records, List<ContentSource> contents)
            throws IOException {
        if (records.size() == 1) {
            restoreVersion(bucket, records.get(0), contents.get(0));
            return;
        }
        CassandraTables.guard(() -> {
            restore.restoreKey(bucket, records, contents);
            return null;
        });
    }

    /**
     * A version with its place as {@link CassandraRestore} writes it; a row without place of an
     * unversioned bucket as a write does, with the recorded time.
     */
    @Override
    public void restoreVersion(String bucket, VersionRecord record, ContentSource source) throws IOException {
        CassandraTables.guard(() -> {
            ObjectVersion v = record.version();
            if (record.order() == null && !v.deleteMarker()
                    && buckets.require(bucket).versioning() == Versioning.UNVERSIONED) {
                ObjectInfo o = v.info();
                objects.write(PutRequest.of(bucket, v.key(), source, o.etag()).withAttributes(o.attributes())
                        .withPartCount(o.partCount()).withChecksums(o.checksums()),
                        record.partSizes(), o.lastModified());
            } else {
                restore.restore(bucket, record, source);
            }
            return null;
        });
    }

    @Override
    public ObjectInfo setObjectVersionAcl(String bucket, String key, String versionId, BucketAcl acl) throws IOException {
        if (CassandraTables.guard(() -> buckets.require(bucket).versioning()) == Versioning.UNVERSIONED) {
            return ObjectStore.super.setObjectVersionAcl(bucket, key, versionId, acl);
        }
        return CassandraTables.guard(() -> objects.versions().setAcl(bucket, key, versionId, acl));
    }

    @Override
    public ListPage listObjects(String bucket, ListQuery query) throws IOException {
        return CassandraTables.guard(() -> objects.list(bucket, query));
    }

    // ---- content by digest

    @Override
    public ContentRead getContent(String sha256) throws IOException {
        return CassandraTables.guard(() -> readers.content(sha256));
    }

    @Override
    public boolean isContentPublic(String sha256) throws IOException {
        return CassandraTables.guard(() -> content.isPublic(sha256, objects));
    }

    // ---- multipart

    @Override
    public UploadInfo createUpload(String bucket, String key, ObjectAttributes attributes) throws IOException {
        return CassandraTables.guard(() -> multipart.create(bucket, key, attributes));
    }

    @Override
    public UploadInfo upload(String bucket, String key, String uploadId) throws IOException {
        return CassandraTables.guard(() -> multipart.upload(bucket, key, uploadId));
    }

    @Override
    public PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource content)
            throws IOException {
        return CassandraTables.guard(() -> multipart.putPart(bucket, key, uploadId, partNumber, content));
    }

    @Override
    public List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws IOException {
        return CassandraTables.guard(() -> multipart.listParts(bucket, key, uploadId, afterPart, maxParts));
    }

    @Override
    public List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker,
                                        int max) throws IOException {
        return CassandraTables.guard(() -> multipart.listUploads(bucket, prefix, keyMarker, uploadIdMarker, max));
    }

    @Override
    public ObjectInfo completeUpload(CompleteRequest request) throws IOException {
        return CassandraTables.guard(() -> multipart.complete(request));
    }

    @Override
    public void abortUpload(String bucket, String key, String uploadId) throws IOException {
        CassandraTables.guard(() -> {
            multipart.abort(bucket, key, uploadId);
            return null;
        });
    }

    // ---- plumbing

    @Override
    public StoreStats stats() {
        return objects.stats();
    }

    /** A node of the cluster as this store's driver sees it: state UP, DOWN, FORCED_DOWN or UNKNOWN. */
    public record NodeStatus(String address, String datacenter, String state, int openConnections) {
    }

    /**
     * Every node the driver knows, by datacenter then address. Nodes of datacenters the store
     * does not use get no connections; their state comes from the cluster's status events.
     */
    public List<NodeStatus> nodes() {
        List<NodeStatus> out = new java.util.ArrayList<>();
        for (com.datastax.oss.driver.api.core.metadata.Node n : tables.session.getMetadata().getNodes().values()) {
            java.net.SocketAddress at = n.getEndPoint().resolve();
            String address = at instanceof java.net.InetSocketAddress i && i.getAddress() != null
                    ? i.getAddress().getHostAddress() + ":" + i.getPort() : at.toString();
            out.add(new NodeStatus(address, String.valueOf(n.getDatacenter()), n.getState().name(), n.getOpenConnections()));
        }
        out.sort(java.util.Comparator.comparing(NodeStatus::datacenter).thenComparing(NodeStatus::address));
        return out;
    }

    /** The store's session (for tools that measure the cluster next to the store). */
    public CqlSession session() {
        return tables.session;
    }

    /**
     * An audit of the reference scheme: {@code problems} would lose data (a row whose reference
     * or content is missing) and must stay empty; {@code leftovers} only keep content longer
     * (bookkeeping cut off by a crash) and are what {@link #sweep} releases. {@code versions}
     * counts the rows of {@code versions} (delete markers included).
     */
    public record AuditReport(int objects, int versions, int parts, int writes, int refs, int generations, long chunks,
                              List<String> problems, List<String> leftovers) {
    }

    /** What a sweep released. */
    public record SweepReport(int orphanParts, int writes, int refs, int contents, int chunks, int dooms) {
    }

    /** Reads every table of the reference scheme (docs/cassandra-internals.md, "Audit and sweep"); for tests and small stores. */
    public AuditReport audit() {
        return new CassandraAudit(tables, content).audit();
    }

    /**
     * Releases what crashes left behind: recorded writes and references no row holds, content
     * nothing references, chunks of no generation, doom marks of dead reclaimers, parts of gone
     * uploads. Only what is older than {@code grace}, except writes ordered before their slot's
     * current row; {@code grace} must outlast a request in flight and Cassandra's hint window.
     */
    public SweepReport sweep(Duration grace) {
        return new CassandraAudit(tables, content).sweep(grace);
    }

    /** What the settling has done since the store opened (metrics). */
    public SettleStats settleStats() {
        return settling.totals();
    }

    /** The settling since the last call, as one line (CassandraBench, tests). */
    String takeSettleStats() {
        return settling.takeLine();
    }

    /** The bookkeeping pool (tests hold it up or lose its queue, as a process that dies would). */
    Settler settler() {
        return settler;
    }

    /** Waits until the bookkeeping of every write answered so far is done (tests look at the tables after it). */
    public void awaitSettled() throws InterruptedException {
        settler.awaitSettled();
    }

    @Override
    public void close() {
        settler.close();
        if (ownsSession) {
            tables.session.close();
        }
    }
}
