package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import dev.cairn.store.StoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The session, the prepared statements ({@link Statements}) and how the store runs them: the
 * consistency of each kind of statement, concurrent execution, and the mapping of the cluster's
 * errors to {@link StoreUnavailableException}. Holds no state but the write id generator, which
 * is thread-safe; thread-safe.
 */
final class CassandraTables {
    final CqlSession session;
    final Statements q;
    final WriteId.Generator ids;
    /** What the store dates writes, uploads and buckets by. */
    final Clock clock;
    final ConsistencyLevel writeCl;
    final ConsistencyLevel readCl;
    final String keyspace;
    /** Reads that the reference protocol relies on always see every acknowledged write. */
    final ConsistencyLevel protocolCl = DefaultConsistencyLevel.LOCAL_QUORUM;

    CassandraTables(CqlSession session, CassandraSettings settings, Clock clock) {
        this.session = session;
        this.clock = clock;
        this.ids = new WriteId.Generator(clock);
        this.keyspace = settings.getKeyspace();
        this.writeCl = DefaultConsistencyLevel.valueOf(settings.getWriteConsistency().name());
        this.readCl = DefaultConsistencyLevel.valueOf(settings.getReadConsistency().name());
        this.q = new Statements(session, settings.getKeyspace());
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

    CompletableFuture<AsyncResultSet> async(Statement<?> st) {
        return session.executeAsync(st).toCompletableFuture();
    }

    /** Waits for every future, failing with the first error. */
    static void joinAll(List<CompletableFuture<AsyncResultSet>> futures) {
        for (CompletableFuture<AsyncResultSet> f : futures) {
            join(f);
        }
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

    /** Every row of an async result, fetching further pages as needed. */
    static List<Row> allRows(AsyncResultSet rs) {
        List<Row> rows = new ArrayList<>();
        for (AsyncResultSet page = rs; ; page = join(page.fetchNextPage().toCompletableFuture())) {
            page.currentPage().forEach(rows::add);
            if (!page.hasMorePages()) {
                return rows;
            }
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

    /** Runs an operation, turning the cluster's errors into {@link StoreUnavailableException}. */
    static <T> T guard(Body<T> body) throws IOException {
        try {
            return body.run();
        } catch (DriverException e) {
            throw unavailable(e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    static StoreUnavailableException unavailable(DriverException e) {
        return new StoreUnavailableException("Cassandra: " + e.getMessage(), e);
    }

    static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JDK", e);
        }
    }
}
