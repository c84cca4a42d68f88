package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Leases on a key for conditional writes: table {@code key_locks}, written only by lightweight
 * transactions ({@code INSERT … IF NOT EXISTS USING TTL}, {@code DELETE … IF holder = ?}), so its
 * cells never meet a write with a client timestamp. A conditional writer holds the lease while it
 * reads the row, checks its condition and writes the row; the object row itself is written as
 * every other write is, at its write id's timestamp (docs/cassandra-internals.md, "Conditional writes").
 *
 * <p>A lease lasts three request timeouts (at least 10 s). A holder that dies keeps the key from
 * other conditional writers until then; unconditional writes never look at it. A writer that
 * finds the key leased watches it with plain reads (which take no part in Paxos, so waiters do not
 * contend with the holder giving the lease back) and tries again once it is free, for up to one
 * request timeout, then gives up with CONDITIONAL_CONFLICT. Takes no lock of its own; thread-safe.
 */
final class KeyLocks {
    private static final long MARGIN_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int RELEASE_ATTEMPTS = 3;

    private final CassandraTables t;
    private final int ttlSeconds;
    private final long waitNanos;

    KeyLocks(CassandraTables t, Duration requestTimeout) {
        this.t = t;
        this.ttlSeconds = (int) Math.max(10, 3 * Math.max(1, requestTimeout.toSeconds()));
        this.waitNanos = requestTimeout.toNanos();
    }

    /** A lease held; closing it gives it back. */
    final class Lease implements AutoCloseable {
        private final String bucket;
        private final String key;
        private final UUID holder;
        private final long expiresNanos;

        private Lease(String bucket, String key, UUID holder, long expiresNanos) {
            this.bucket = bucket;
            this.key = key;
            this.holder = holder;
            this.expiresNanos = expiresNanos;
        }

        /**
         * Fails when the lease may have run out before now: another conditional writer may have
         * taken the key meanwhile, so what this one wrote is of unknown outcome.
         */
        void requireHeld() throws StoreUnavailableException {
            if (System.nanoTime() - expiresNanos > 0) {
                throw new StoreUnavailableException("the conditional write of " + bucket + "/" + key
                        + " outlived its " + ttlSeconds + " s lease; it may or may not have been applied", null);
            }
        }

        @Override
        public void close() {
            for (int attempt = 1; ; attempt++) {
                try {
                    t.session.execute(t.q.releaseKeyLock.bind(bucket, key, holder).setConsistencyLevel(t.writeCl));
                    return;
                } catch (DriverException e) {
                    if (attempt == RELEASE_ATTEMPTS) {
                        return; // The lease expires on its own; the write it guarded is done either way.
                    }
                }
            }
        }
    }

    /** Takes the key's lease, waiting while another conditional writer holds it. */
    Lease acquire(String bucket, String key) throws IOException {
        UUID holder = UUID.randomUUID();
        long start = System.nanoTime();
        while (true) {
            long sent = System.nanoTime();
            if (tryAcquire(bucket, key, holder)) {
                return new Lease(bucket, key, holder, sent + TimeUnit.SECONDS.toNanos(ttlSeconds) - MARGIN_NANOS);
            }
            do {
                if (System.nanoTime() - start > waitNanos) {
                    throw new StoreException(StoreException.Reason.CONDITIONAL_CONFLICT,
                            "another conditional write of " + bucket + "/" + key + " is in progress");
                }
                pause();
            } while (t.session.execute(t.protocol(t.q.selectKeyLock.bind(bucket, key))).one() != null);
        }
    }

    /**
     * One attempt. A transaction that timed out may still have been applied (under contention
     * Paxos reports a timeout): a serial read, which completes any transaction in flight, tells.
     */
    private boolean tryAcquire(String bucket, String key, UUID holder) {
        try {
            return t.session.execute(t.q.acquireKeyLock.bind(bucket, key, holder, ttlSeconds)
                    .setConsistencyLevel(t.writeCl)).wasApplied();
        } catch (DriverException timedOut) {
            Row r = t.session.execute(t.q.selectKeyLock.bind(bucket, key)
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_SERIAL)).one();
            return r != null && holder.equals(r.getUuid("holder"));
        }
    }

    private static void pause() throws StoreUnavailableException {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(5, 30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted while waiting for a key's lease", e);
        }
    }
}
