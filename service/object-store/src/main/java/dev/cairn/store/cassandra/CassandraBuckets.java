package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.StoreException;
import dev.cairn.store.Utf8Order;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Buckets: table {@code buckets}, one row per bucket, created with a lightweight transaction so
 * that two nodes cannot both create one. A bucket found is reused for {@code bucket-cache-ttl}
 * (every anonymous GET checks its bucket's ACL: without this each cost a quorum read), and
 * re-read in the background by one caller once half that time has passed; this node's own
 * changes drop the entry at once, an absent bucket is never cached. A PUT reads the row itself.
 * Takes no lock. Thread-safe.
 */
final class CassandraBuckets {
    /** What must be true of a bucket before its row goes. */
    interface Emptier {
        void empty(String bucket) throws IOException;
    }

    private static final int MAX_CACHED = 10_000;

    private final CassandraTables t;
    private final long ttlNanos;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /** {@code refreshing}: one caller won the refresh ahead of expiry; equality is by identity of this flag. */
    private record Cached(BucketInfo info, long readAtNanos, AtomicBoolean refreshing) {
        Cached(BucketInfo info, long readAtNanos) {
            this(info, readAtNanos, new AtomicBoolean());
        }
    }

    CassandraBuckets(CassandraTables t, Duration ttl) {
        this.t = t;
        this.ttlNanos = ttl.toNanos();
    }

    BucketInfo create(String bucket, BucketAcl acl, long createdMillis) throws StoreException {
        cache.remove(bucket);
        BucketInfo info = new BucketInfo(bucket, createdMillis, acl);
        ResultSet rs = t.session.execute(t.write(t.q.insertBucket.bind(bucket, info.createdMillis(), acl.code())));
        if (!rs.wasApplied()) {
            throw new StoreException(StoreException.Reason.BUCKET_EXISTS, bucket);
        }
        return info;
    }

    BucketInfo get(String bucket) {
        long now = System.nanoTime();
        Cached c = cache.get(bucket);
        if (c != null && now - c.readAtNanos() < ttlNanos) {
            // Past half its life one caller re-reads the row in the background: under load nobody waits
            // for the bucket row at expiry, nor do all callers read it at once.
            if (now - c.readAtNanos() >= ttlNanos / 2 && c.refreshing().compareAndSet(false, true)) {
                refreshAhead(bucket, c, now);
            }
            return c.info();
        }
        Row r = t.session.execute(t.read(t.q.selectBucket.bind(bucket))).one();
        BucketInfo info = r == null ? null : of(bucket, r);
        if (info == null || ttlNanos == 0) {
            cache.remove(bucket);
        } else {
            if (cache.size() >= MAX_CACHED) {
                cache.clear();
            }
            cache.put(bucket, new Cached(info, now));
        }
        return info;
    }

    /**
     * Replaces {@code stale} with the row read now, stamped with the time the read was sent, so no
     * copy is used longer than {@code ttl} after its read; a bucket found gone is dropped. Replaces
     * only {@code stale} itself: a change made by this node meanwhile is not overwritten by an older
     * read. A failed read leaves {@code stale} to expire and be read by its next caller.
     */
    private void refreshAhead(String bucket, Cached stale, long sentNanos) {
        t.async(t.read(t.q.selectBucket.bind(bucket))).whenComplete((rs, failure) -> {
            if (failure != null) {
                return;
            }
            Row r = rs.one();
            if (r == null) {
                cache.remove(bucket, stale);
            } else {
                cache.replace(bucket, stale, new Cached(of(bucket, r), sentNanos));
            }
        });
    }

    /**
     * The versioning state of this node's copy of the bucket, however old, or null when it has
     * none: what a PUT and a GET take as a first guess, on no read of their own. A PUT reads the
     * bucket row all the same and corrects the guess ({@link #remember}).
     */
    Versioning knownVersioning(String bucket) {
        Cached c = cache.get(bucket);
        return c == null ? null : c.info().versioning();
    }

    /** Drops this node's copy: another node changed the bucket. */
    void forget(String bucket) {
        cache.remove(bucket);
    }

    /** Keeps a bucket row just read (by a PUT) as this node's copy. */
    void remember(String bucket, Row r) {
        if (ttlNanos > 0 && cache.size() < MAX_CACHED) {
            cache.put(bucket, new Cached(of(bucket, r), System.nanoTime()));
        }
    }

    BucketInfo require(String bucket) throws StoreException {
        BucketInfo b = get(bucket);
        if (b == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
        return b;
    }

    /** A bucket row; {@code versioning} is null in a row whose versioning was never set, {@code documents} in one without. */
    static BucketInfo of(String bucket, Row r) {
        return new BucketInfo(bucket, r.getLong("created"), BucketAcl.ofCode(r.getInt("acl")),
                r.isNull("versioning") ? Versioning.UNVERSIONED : Versioning.ofCode(r.getInt("versioning")),
                r.getMap("documents", String.class, String.class));
    }

    void setVersioning(String bucket, Versioning versioning) throws StoreException {
        cache.remove(bucket);
        boolean applied = t.session.execute(t.write(t.q.updateBucketVersioning.bind(versioning.code(), bucket))).wasApplied();
        cache.remove(bucket);
        if (!applied) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
    }

    /** Sets or removes one document: one map entry of the row, the rest untouched. */
    void setDocument(dev.cairn.store.BucketDocument document) throws StoreException {
        String bucket = document.bucket();
        cache.remove(bucket);
        var statement = document.text() == null
                ? t.q.deleteBucketDocument.bind(document.kind(), bucket)
                : t.q.updateBucketDocument.bind(document.kind(), document.text(), bucket);
        boolean applied = t.session.execute(t.write(statement)).wasApplied();
        cache.remove(bucket);
        if (!applied) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
    }

    boolean isPublic(String bucket) {
        BucketInfo info = get(bucket);
        return info != null && info.acl() == BucketAcl.PUBLIC_READ;
    }

    List<BucketInfo> list() {
        List<BucketInfo> all = new ArrayList<>();
        for (Row r : t.session.execute(t.read(t.q.selectBuckets.bind()))) {
            all.add(of(r.getString("name"), r));
        }
        all.sort(Comparator.comparing(BucketInfo::name, Utf8Order.COMPARATOR));
        return List.copyOf(all);
    }

    void setAcl(String bucket, BucketAcl acl) throws StoreException {
        cache.remove(bucket);
        boolean applied = t.session.execute(t.write(t.q.updateBucketAcl.bind(acl.code(), bucket))).wasApplied();
        cache.remove(bucket);
        if (!applied) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
    }

    void delete(String bucket, Emptier emptier) throws IOException {
        require(bucket);
        emptier.empty(bucket);
        boolean applied = t.session.execute(t.write(t.q.deleteBucket.bind(bucket))).wasApplied();
        cache.remove(bucket);
        if (!applied) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
    }
}
