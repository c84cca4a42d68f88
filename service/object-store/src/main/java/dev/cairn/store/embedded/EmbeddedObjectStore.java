package dev.cairn.store.embedded;

import dev.cairn.engine.Engine;
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
import dev.cairn.store.PartInfo;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreStats;
import dev.cairn.store.UploadInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import static dev.cairn.store.embedded.EngineErrors.translated;

import java.time.Clock;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The object store on Cairn's embedded engine. Row layouts are in docs/object-stores.md ("Embedded
 * layout"). The store is split into rooms, as the Cassandra store is:
 *
 * <table>
 *   <caption>Rooms</caption>
 *   <tr><td>{@link EmbeddedBuckets}</td><td>buckets, and the bucket locks</td></tr>
 *   <tr><td>{@link EmbeddedObjects}, {@link EmbeddedKeys}, {@link ObjectRow}</td><td>object rows and the key layout</td></tr>
 *   <tr><td>{@link EmbeddedContent}, {@link Intents}</td><td>content, reference counts, reclamation and sweeps</td></tr>
 *   <tr><td>{@link EmbeddedMultipart}, {@link PartLayouts}</td><td>multipart uploads</td></tr>
 *   <tr><td>{@link EmbeddedReaders}</td><td>reading content: chunk readers at snapshots</td></tr>
 *   <tr><td>{@link EmbeddedTables}, {@link EmbeddedRows}</td><td>the tables and their row values</td></tr>
 *   <tr><td>{@link EmbeddedVersionedObjects}, {@link EmbeddedVersions}</td><td>object versions</td></tr>
 *   <tr><td>{@link EmbeddedRestore}</td><td>rows written as a backup recorded them</td></tr>
 * </table>
 *
 * <p>Concurrency: a bucket's read/write lock keeps it from being deleted under a write; a lock
 * per (bucket, key) serialises writes to one key; a lock per content digest serialises its
 * reference count. Locks are taken in that order, digests in stripe order. Content is written
 * and its reference counted before the object row names it, in one atomic batch when the
 * content fits one chunk; a replaced row's reference is dropped in the batch that replaces it,
 * and content left without reference is deleted in that same batch. Readers of content larger
 * than one chunk read at an engine snapshot; single-chunk readers retry if the content they
 * were about to read was reclaimed, so no reader sees a mix of two writes.
 *
 * <p>Thread-safety: safe for concurrent use. The engine is the caller's; {@link #close()}
 * leaves it open.
 */
public final class EmbeddedObjectStore implements ObjectStore {

    /** Content is stored in chunks of this size, so no read or write holds an object whole. */
    public static final int CHUNK_BYTES = 1 << 20;

    private final EmbeddedTables tables;
    private final EmbeddedBuckets buckets;
    private final EmbeddedContent content;
    private final EmbeddedReaders readers;
    private final EmbeddedObjects objects;
    private final EmbeddedMultipart multipart;
    private final EmbeddedVersionedObjects versioned;
    private final EmbeddedRestore restore;
    private final Clock clock;

    /** Opens the store's tables in {@code engine} and sweeps what writers that died left. */
    public EmbeddedObjectStore(Engine engine) throws IOException {
        this(engine, Clock.systemUTC());
    }

    /** As {@link #EmbeddedObjectStore(Engine)}, dating objects, versions, uploads and parts by {@code clock}. */
    public EmbeddedObjectStore(Engine engine, Clock clock) throws IOException {
        this.clock = clock;
        tables = new EmbeddedTables(engine);
        buckets = new EmbeddedBuckets(tables);
        content = new EmbeddedContent(tables, buckets);
        readers = new EmbeddedReaders(tables);
        objects = new EmbeddedObjects(tables, buckets, content, readers, clock);
        multipart = new EmbeddedMultipart(tables, buckets, content, readers, objects, clock);
        versioned = new EmbeddedVersionedObjects(tables, buckets, content, readers, objects, clock);
        restore = new EmbeddedRestore(tables, buckets, content, objects);
        sweep();
    }

    /** What one {@link #sweep()} undid. */
    public record SweepReport(int abandonedContents, long abandonedBytes, int danglingReferences) {
    }

    /**
     * Undoes what writers that died left half done (journaled in table {@code intents}): chunks
     * of content whose size row was never written are deleted, and references counted for rows
     * that were never written (or were deleted before their reference was dropped) are dropped,
     * reclaiming content left without any. Runs on open and then whenever called; never touches
     * the work of a writer alive in this process.
     */
    public SweepReport sweep() throws IOException {
        return content.sweep();
    }

    /**
     * What {@link #audit()} found: how many object rows and parts hold references, how much
     * content they hold, and every inconsistency (empty when reference counts are exact, all
     * referenced content is whole and nothing is leaked).
     */
    public record AuditReport(int objects, int parts, int contents, long contentBytes, List<String> problems) {
    }

    /**
     * Recounts every reference from the rows that hold them and checks the stored counts, that
     * referenced content is whole and that no content, chunk or intent of a dead writer is left
     * over. Reads one snapshot; meant for a quiet store (tests, operators after a crash): a write
     * in flight shows up as its live intent, which is not a problem.
     */
    public AuditReport audit() throws IOException {
        return new EmbeddedAudit(tables).run();
    }

    /** Sweeps every {@code interval} on a background thread until {@link #close()}. */
    public void sweepEvery(Duration interval) {
        content.sweepEvery(interval);
    }

    // ---- buckets

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl) throws IOException {
        return createBucket(bucket, acl, clock.millis());
    }

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl, long createdMillis) throws IOException {
        return translated(() -> buckets.create(bucket, acl, createdMillis));
    }

    @Override
    public BucketInfo bucket(String bucket) {
        return buckets.get(bucket);
    }

    @Override
    public List<BucketInfo> listBuckets() {
        return buckets.list();
    }

    @Override
    public void setBucketAcl(String bucket, BucketAcl acl) throws IOException {
        translated(() -> buckets.setAcl(bucket, acl));
    }

    @Override
    public void setBucketDocument(dev.cairn.store.BucketDocument document) throws IOException {
        translated(() -> buckets.setDocument(document));
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        translated(() -> buckets.delete(bucket, b -> {
            objects.requireNone(b);
            multipart.abortAll(b);
        }));
    }

    // ---- objects

    @Override
    public ObjectInfo putObject(PutRequest request) throws IOException {
        return translated(() -> objects.write(request, null));
    }

    @Override
    public ObjectInfo setObjectAcl(String bucket, String key, dev.cairn.store.BucketAcl acl) throws IOException {
        return translated(() -> objects.setAcl(bucket, key, acl));
    }

    @Override
    public ObjectInfo setObjectVersionAcl(String bucket, String key, String versionId, dev.cairn.store.BucketAcl acl)
            throws IOException {
        return translated(() -> versioned.setAcl(bucket, key, versionId, acl));
    }

    @Override
    public long[] partSizes(String bucket, String key, ObjectInfo info) throws IOException {
        return translated(() -> objects.partSizes(bucket, key, info));
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) throws IOException {
        return translated(() -> objects.head(bucket, key));
    }

    @Override
    public ObjectRead getObject(String bucket, String key) throws IOException {
        return translated(() -> objects.get(bucket, key));
    }

    /** In a bucket whose versioning is configured, a delete marker; returns the current version it hid. */
    @Override
    public ObjectInfo deleteObject(String bucket, String key) throws IOException {
        return translated(() -> {
            if (buckets.require(bucket).versioning() == Versioning.UNVERSIONED) {
                return objects.delete(bucket, key);
            }
            ObjectInfo current = objects.head(bucket, key);
            versioned.delete(bucket, key, null);
            return current;
        });
    }

    @Override
    public void setBucketVersioning(String bucket, Versioning versioning) throws IOException {
        translated(() -> buckets.setVersioning(bucket, versioning));
    }

    @Override
    public ObjectVersion objectVersion(String bucket, String key, String versionId) throws IOException {
        return translated(() -> versioned.version(bucket, key, versionId));
    }

    @Override
    public ObjectRead getObjectVersion(String bucket, String key, String versionId) throws IOException {
        return translated(() -> versioned.read(bucket, key, versionId));
    }

    @Override
    public ObjectVersion currentDeleteMarker(String bucket, String key) throws IOException {
        return translated(() -> versioned.currentDeleteMarker(bucket, key));
    }

    @Override
    public boolean restoresVersions() {
        return true;
    }

    @Override
    public void restoreVersion(String bucket, VersionRecord record, ContentSource source) throws IOException {
        translated(() -> restore.restore(bucket, record, source));
    }

    @Override
    public ObjectVersion deleteObjectVersion(String bucket, String key, String versionId) throws IOException {
        return translated(() -> versioned.delete(bucket, key, versionId));
    }

    @Override
    public VersionPage listObjectVersions(String bucket, VersionQuery query) throws IOException {
        return translated(() -> versioned.list(bucket, query));
    }

    @Override
    public ListPage listObjects(String bucket, ListQuery query) throws IOException {
        return translated(() -> objects.list(bucket, query));
    }

    // ---- content

    @Override
    public ContentRead getContent(String sha256) throws IOException {
        return translated(() -> readers.content(sha256));
    }

    @Override
    public boolean isContentPublic(String sha256) throws IOException {
        return translated(() -> content.isPublic(sha256));
    }

    // ---- multipart

    @Override
    public UploadInfo createUpload(String bucket, String key, ObjectAttributes attributes) throws IOException {
        return translated(() -> multipart.create(bucket, key, attributes));
    }

    @Override
    public UploadInfo upload(String bucket, String key, String uploadId) throws IOException {
        return translated(() -> multipart.upload(bucket, key, uploadId));
    }

    @Override
    public PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource content)
            throws IOException {
        return translated(() -> multipart.putPart(bucket, key, uploadId, partNumber, content));
    }

    @Override
    public List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws IOException {
        return translated(() -> multipart.listParts(bucket, key, uploadId, afterPart, maxParts));
    }

    @Override
    public List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker, int max)
            throws IOException {
        return translated(() -> multipart.listUploads(bucket, prefix, keyMarker, uploadIdMarker, max));
    }

    @Override
    public ObjectInfo completeUpload(CompleteRequest request) throws IOException {
        return translated(() -> multipart.complete(request));
    }

    @Override
    public void abortUpload(String bucket, String key, String uploadId) throws IOException {
        translated(() -> multipart.abort(bucket, key, uploadId));
    }

    @Override
    public StoreStats stats() {
        return objects.stats();
    }

    /** Stops the background sweep, waiting for one in progress; the engine stays open. */
    @Override
    public void close() {
        content.close();
    }
}
