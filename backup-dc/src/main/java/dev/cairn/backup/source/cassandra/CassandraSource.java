package dev.cairn.backup.source.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.StoreUnavailableException;
import dev.cairn.store.cassandra.CassandraScanner;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the Cassandra store from one datacenter only (by default {@code backup}) through a
 * session that cannot reach any other ({@link PinnedSessions}). Splits are token ranges
 * ({@link TokenSplits}); a position is the last row's token and partition key
 * ({@link ScanPosition}). Rows and content are read by the store library's
 * {@link CassandraScanner}, read-only.
 *
 * <p>Thread-safety: safe for concurrent scans and content reads.
 */
public final class CassandraSource implements BackupSource {
    private final CqlSession session;
    private final String datacenter;
    private final String keyspace;
    private final int splitCount;
    private final CassandraScanner scanner;

    private CassandraSource(CqlSession session, SourceOptions o) {
        this.session = session;
        this.datacenter = o.datacenter;
        this.keyspace = o.keyspace;
        this.splitCount = o.splits;
        this.scanner = new CassandraScanner(session, o.keyspace, consistency(o.consistency), o.pageSize);
    }

    public static CassandraSource open(SourceOptions o) throws IOException {
        if (o.splits < 1) {
            throw new IllegalArgumentException("--splits must be at least 1, got " + o.splits);
        }
        if (o.pageSize < 1) {
            throw new IllegalArgumentException("--page-size must be at least 1, got " + o.pageSize);
        }
        consistency(o.consistency);
        CqlSession session = PinnedSessions.connect(o);
        try {
            if (session.getMetadata().getKeyspace(o.keyspace).isEmpty()) {
                throw new IOException("keyspace " + o.keyspace + " does not exist in the cluster of " + o.contactPoints);
            }
            return new CassandraSource(session, o);
        } catch (IOException | RuntimeException e) {
            session.close();
            throw e;
        }
    }

    private static DefaultConsistencyLevel consistency(String name) {
        try {
            DefaultConsistencyLevel cl = DefaultConsistencyLevel.valueOf(name.toUpperCase(Locale.ROOT));
            if (cl != DefaultConsistencyLevel.LOCAL_ONE && cl != DefaultConsistencyLevel.LOCAL_QUORUM) {
                throw new IllegalArgumentException("--consistency " + name
                        + ": only LOCAL_ONE or LOCAL_QUORUM keep the reads inside one datacenter");
            }
            return cl;
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("--consistency")) {
                throw e;
            }
            throw new IllegalArgumentException("--consistency " + name + ": expected LOCAL_ONE or LOCAL_QUORUM", e);
        }
    }

    @Override
    public String describe() {
        return "cassandra dc=" + datacenter + " keyspace=" + keyspace;
    }

    @Override
    public List<BucketInfo> buckets() throws IOException {
        try {
            return scanner.buckets();
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    @Override
    public List<Split> splits() {
        TokenMap tokens = session.getMetadata().getTokenMap().orElseThrow(() -> new IllegalStateException(
                "the driver knows no token map for " + describe() + " (token metadata disabled?)"));
        if (!tokens.getPartitionerName().endsWith("Murmur3Partitioner")) {
            throw new IllegalStateException("the cluster's partitioner is " + tokens.getPartitionerName()
                    + "; the backup reads Murmur3 rings only");
        }
        List<Long> nodeTokens = new ArrayList<>();
        for (Node node : session.getMetadata().getNodes().values()) {
            for (Token t : tokens.getTokens(node)) {
                nodeTokens.add(Long.parseLong(tokens.format(t)));
            }
        }
        List<Split> out = new ArrayList<>();
        for (TokenSplits.Range r : TokenSplits.of(nodeTokens, splitCount)) {
            out.add(new Split(r.id(), "tokens (" + r.start() + ", " + r.end() + "]"));
        }
        return out;
    }

    @Override
    public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
        TokenSplits.Range range = TokenSplits.parse(split.id());
        ScanPosition after = resumeAfter == null ? null : ScanPosition.parse(resumeAfter);
        try {
            scanner.scan(range.start(), range.end(), after == null ? null : after.token(),
                    after == null ? null : after.compositeKey(),
                    row -> sink.accept(row.bucket(), row.info(), new ScanPosition(row.token(),
                            CassandraScanner.compositeKey(row.bucket(), row.info().key())).encode()));
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    @Override
    public InputStream openContent(String sha256) throws IOException {
        try {
            return scanner.openContent(sha256);
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    private IOException unavailable(StoreUnavailableException e) {
        return new IOException("datacenter " + datacenter + " did not answer (" + e.getMessage()
                + "); the backup reads no other datacenter, so it stops here and can resume later", e);
    }

    @Override
    public void close() {
        session.close();
    }
}
