package dev.cairn.backup.source.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import dev.cairn.backup.report.SplitRead;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.StoreUnavailableException;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import dev.cairn.store.cassandra.CassandraScanner;
import dev.cairn.store.cassandra.CassandraVersionScanner;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the Cassandra store from one datacenter only (by default {@code backup}) through a
 * session that cannot reach any other ({@link PinnedSessions}). Splits are token ranges
 * ({@link TokenSplits}); a position is the last row's token and partition key
 * ({@link ScanPosition}). Rows and content are read by the store library's
 * {@link CassandraScanner}, read-only.
 *
 * <p>A bucket whose versioning is configured is read from table {@code versions}
 * ({@link CassandraVersionScanner}), every version of every key: a split scans {@code objects}
 * first — rows of unversioned buckets, and the current rows of versioned buckets that
 * {@code versions} does not list yet — then {@code versions} over the same token range. Whether a
 * bucket is versioned is what {@link #buckets} read, so the rows agree with the manifest's
 * bucket records.
 *
 * <p>Each split's pages are tallied by the node that answered them ({@link SplitReads}), for the
 * job's log and report: the datacenter the scan was pointed at, shown node by node.
 *
 * <p>Thread-safety: safe for concurrent scans and content reads.
 */
public final class CassandraSource implements BackupSource {
    private final CqlSession session;
    private final String datacenter;
    private final String keyspace;
    private final int splitCount;
    private final CassandraScanner scanner;
    private final CassandraVersionScanner versionScanner;
    private volatile Map<String, Versioning> versioning;
    private final Map<String, SplitReads> reads = new ConcurrentHashMap<>();
    private volatile PrintStream readsLog;

    private CassandraSource(CqlSession session, SourceOptions o) {
        this.session = session;
        this.datacenter = o.datacenter;
        this.keyspace = o.keyspace;
        this.splitCount = o.splits;
        this.scanner = new CassandraScanner(session, o.keyspace, consistency(o.consistency), o.pageSize);
        this.versionScanner = new CassandraVersionScanner(session, o.keyspace, consistency(o.consistency), o.pageSize);
    }

    public static CassandraSource open(SourceOptions o) throws IOException {
        check(o);
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

    /** The options' own errors, found without connecting. */
    public static void check(SourceOptions o) {
        if (o.contactPoints.isEmpty()) {
            throw new IllegalArgumentException("--contact-points is required with --source cassandra: nodes of datacenter "
                    + o.datacenter);
        }
        if (o.username != null && o.passwordFile == null) {
            throw new IllegalArgumentException("--username needs --password-file");
        }
        if (o.passwordFile != null && !java.nio.file.Files.isReadable(o.passwordFile)) {
            throw new IllegalArgumentException("--password-file " + o.passwordFile + ": no such file, or not readable");
        }
        if (o.splits < 1) {
            throw new IllegalArgumentException("--splits must be at least 1, got " + o.splits);
        }
        if (o.pageSize < 1) {
            throw new IllegalArgumentException("--page-size must be at least 1, got " + o.pageSize);
        }
        consistency(o.consistency);
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
            List<BucketInfo> all = scanner.buckets();
            Map<String, Versioning> byName = new HashMap<>();
            for (BucketInfo b : all) {
                byName.put(b.name(), b.versioning());
            }
            versioning = byName;
            return all;
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    @Override
    public boolean suppliesVersions() {
        return true;
    }

    private Map<String, Versioning> versioning() throws IOException {
        Map<String, Versioning> known = versioning;
        if (known == null) {
            buckets();
            known = versioning;
        }
        return known;
    }

    private static boolean versioned(Map<String, Versioning> known, String bucket) {
        Versioning v = known.get(bucket);
        return v != null && v != Versioning.UNVERSIONED;
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
        Map<String, Versioning> known = versioning();
        SplitReads tally = reads.computeIfAbsent(split.id(), id -> new SplitReads(split));
        try {
            if (after == null || !after.inVersions()) {
                scanner.scan(range.start(), range.end(), after == null ? null : after.token(),
                        after == null ? null : after.compositeKey(), row -> {
                            String position = new ScanPosition(row.token(),
                                    CassandraScanner.compositeKey(row.bucket(), row.info().key())).encode();
                            if (!versioned(known, row.bucket())) {
                                sink.accept(row.bucket(), row.info(), row.partSizes(), position);
                                return;
                            }
                            VersionRecord unlisted = versionScanner.unlistedCurrent(row.bucket(), row.info(), row.writeId());
                            if (unlisted != null) {
                                sink.acceptVersion(row.bucket(), unlisted, position);
                            }
                        }, tally::answeredBy);
            }
            if (known.values().stream().anyMatch(v -> v != Versioning.UNVERSIONED)) {
                boolean resumes = after != null && after.inVersions();
                versionScanner.scan(range.start(), range.end(), resumes ? after.token() : null,
                        resumes ? after.compositeKey() : null, resumes ? after.sort() : null,
                        bucket -> versioned(known, bucket),
                        v -> sink.acceptVersion(v.bucket(), v.version(), new ScanPosition(v.token(),
                                CassandraScanner.compositeKey(v.bucket(), v.version().version().key()),
                                v.version().order()).encode()), tally::answeredBy);
            }
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
        PrintStream log = readsLog;
        if (log != null) {
            log.println(tally.read().line());
        }
    }

    @Override
    public List<SplitRead> splitReads() {
        return reads.values().stream().map(SplitReads::read).sorted(java.util.Comparator.comparing(SplitRead::split))
                .toList();
    }

    @Override
    public void logSplitReadsTo(PrintStream log) {
        readsLog = log;
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
