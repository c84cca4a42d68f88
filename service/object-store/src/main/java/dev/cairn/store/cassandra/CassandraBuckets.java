package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.StoreException;
import dev.cairn.store.Utf8Order;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Buckets: table {@code buckets}, one row per bucket, created with a lightweight transaction so
 * that two nodes cannot both create one. Takes no lock and caches nothing: every read goes to
 * the cluster. Thread-safe.
 */
final class CassandraBuckets {
    /** What must be true of a bucket before its row goes. */
    interface Emptier {
        void empty(String bucket) throws IOException;
    }

    private final CassandraTables t;

    CassandraBuckets(CassandraTables t) {
        this.t = t;
    }

    BucketInfo create(String bucket, BucketAcl acl) throws StoreException {
        BucketInfo info = new BucketInfo(bucket, System.currentTimeMillis(), acl);
        ResultSet rs = t.session.execute(t.write(t.q.insertBucket.bind(bucket, info.createdMillis(), acl.code())));
        if (!rs.wasApplied()) {
            throw new StoreException(StoreException.Reason.BUCKET_EXISTS, bucket);
        }
        return info;
    }

    BucketInfo get(String bucket) {
        Row r = t.session.execute(t.read(t.q.selectBucket.bind(bucket))).one();
        return r == null ? null : new BucketInfo(bucket, r.getLong("created"), BucketAcl.ofCode(r.getInt("acl")));
    }

    BucketInfo require(String bucket) throws StoreException {
        BucketInfo b = get(bucket);
        if (b == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
        return b;
    }

    boolean isPublic(String bucket) {
        BucketInfo info = get(bucket);
        return info != null && info.acl() == BucketAcl.PUBLIC_READ;
    }

    List<BucketInfo> list() {
        List<BucketInfo> all = new ArrayList<>();
        for (Row r : t.session.execute(t.read(t.q.selectBuckets.bind()))) {
            all.add(new BucketInfo(r.getString("name"), r.getLong("created"), BucketAcl.ofCode(r.getInt("acl"))));
        }
        all.sort(Comparator.comparing(BucketInfo::name, Utf8Order.COMPARATOR));
        return List.copyOf(all);
    }

    void setAcl(String bucket, BucketAcl acl) throws StoreException {
        if (!t.session.execute(t.write(t.q.updateBucketAcl.bind(acl.code(), bucket))).wasApplied()) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
    }

    void delete(String bucket, Emptier emptier) throws IOException {
        require(bucket);
        emptier.empty(bucket);
        if (!t.session.execute(t.write(t.q.deleteBucket.bind(bucket))).wasApplied()) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
    }
}
