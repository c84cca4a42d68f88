package dev.cairn.backup.source;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where a backup reads, as command-line options shared by every command that reads a source.
 * Each default is written once, here.
 */
public final class SourceOptions {

    /** Which kind of source. */
    public enum Kind { cassandra, embedded }

    @Option(names = "--source", required = true, description = "cassandra or embedded")
    public Kind kind;

    // Cassandra: the session is pinned to one datacenter and never fails over to another.
    @Option(names = "--contact-points", split = ",", description = "host:port of nodes of the backup datacenter")
    public List<String> contactPoints = List.of();

    @Option(names = "--datacenter", defaultValue = "backup", description = "the datacenter read (default: ${DEFAULT-VALUE})")
    public String datacenter;

    @Option(names = "--keyspace", defaultValue = "cairn", description = "the store's keyspace (default: ${DEFAULT-VALUE})")
    public String keyspace;

    @Option(names = "--username", description = "Cassandra user, when authentication is on")
    public String username;

    @Option(names = "--password-file", description = "file holding the Cassandra password")
    public Path passwordFile;

    @Option(names = "--consistency", defaultValue = "LOCAL_ONE", description = "read consistency (default: ${DEFAULT-VALUE})")
    public String consistency;

    @Option(names = "--splits-in-flight", defaultValue = "4", description = "splits scanned at once (default: ${DEFAULT-VALUE})")
    public int splitsInFlight;

    @Option(names = "--page-size", defaultValue = "500", description = "rows per page (default: ${DEFAULT-VALUE})")
    public int pageSize;

    @Option(names = "--splits", defaultValue = "64",
            description = "cassandra: token ranges the ring is cut into, at least (default: ${DEFAULT-VALUE})")
    public int splits;

    @Option(names = "--request-timeout", defaultValue = "10",
            description = "cassandra: seconds one request may take before the job stops with an error (default: ${DEFAULT-VALUE})")
    public int requestTimeoutSeconds;

    // Embedded: the service takes an engine checkpoint; the job opens it read-only.
    @Option(names = "--service-url", description = "the running service, e.g. http://127.0.0.1:9000")
    public String serviceUrl;

    @Option(names = "--admin-access-key-file", description = "file holding the access key allowed to take checkpoints")
    public Path adminAccessKeyFile;

    @Option(names = "--admin-secret-key-file", description = "file holding that key's secret")
    public Path adminSecretKeyFile;

    @Option(names = "--read-rate", defaultValue = "0",
            description = "embedded: bytes/s read from the checkpoint, suffixes K, M, G; 0: unlimited (default: ${DEFAULT-VALUE})")
    public String readRate;

    @Option(names = "--through-caches",
            description = "embedded: read through the engine's caches at normal I/O priority. A BASELINE for benchmarks"
                    + " only: it evicts the serving hot set")
    public boolean throughCaches;

    @Option(names = "--admin-region", defaultValue = "us-east-1",
            description = "embedded: the region admin requests are signed for (default: ${DEFAULT-VALUE})")
    public String region;
}
