package dev.cairn.backup.cli;

import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.restore.RestoreStateDirs;
import dev.cairn.backup.restore.S3Destination;
import dev.cairn.backup.restore.StoreDestination;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.S3Clients;
import dev.cairn.backup.target.TargetOptions;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where a restore writes, as options. Cassandra defaults are those of the store's own settings
 * ({@link CassandraSettings}); the S3 region default is {@link TargetOptions#DEFAULT_REGION}.
 */
public final class DestinationOptions {
    @Option(names = "--into", required = true,
            description = "embedded:/path (the service's data directory, cairn.data-dir, no process has open), cassandra, or s3")
    String into;

    @Option(names = "--into-endpoint", description = "s3: endpoint URL (path-style requests)")
    String endpoint;

    @Option(names = "--into-access-key-file", description = "s3: file holding the access key")
    Path accessKeyFile;

    @Option(names = "--into-secret-key-file", description = "s3: file holding the secret key")
    Path secretKeyFile;

    @Option(names = "--into-region", description = "s3: region (default: " + TargetOptions.DEFAULT_REGION + ")")
    String region;

    @Option(names = "--into-contact-points", split = ",", description = "cassandra: host:port of nodes (default: the store's)")
    List<String> contactPoints;

    @Option(names = "--into-datacenter", description = "cassandra: the datacenter written to (default: the store's)")
    String datacenter;

    @Option(names = "--into-keyspace", description = "cassandra: the keyspace (default: the store's)")
    String keyspace;

    @Option(names = "--replay-versions", description = "s3: restore buckets with versioning by writing each key's"
            + " versions again, oldest first (new version ids and times: S3 lets no client set them)")
    boolean replayVersions;

    /** Where a restore records its progress unless told ({@link RestoreStateDirs}). */
    Path defaultStateDir() {
        return into.startsWith("embedded:") ? RestoreStateDirs.besideStore(embeddedDir()) : RestoreStateDirs.inHome();
    }

    private Path embeddedDir() {
        return Path.of(into.substring("embedded:".length()));
    }

    RestoreDestination open() throws IOException {
        if (replayVersions && !into.equals("s3")) {
            throw new IllegalArgumentException("--replay-versions is for --into s3; a store restores each version in its place");
        }
        if (into.startsWith("embedded:")) {
            Path dir = embeddedDir();
            EmbeddedStoreDir store = EmbeddedStoreDir.open(dir);
            return new StoreDestination(store.store(), "embedded store " + dir.toAbsolutePath(), store);
        }
        if (into.equals("cassandra")) {
            CassandraSettings s = new CassandraSettings();
            if (contactPoints != null) {
                s.setContactPoints(contactPoints);
            }
            if (datacenter != null) {
                s.setLocalDatacenter(datacenter);
            }
            if (keyspace != null) {
                s.setKeyspace(keyspace);
            }
            CassandraObjectStore store = CassandraObjectStore.open(s);
            return new StoreDestination(store, "cassandra " + s.getContactPoints() + " dc=" + s.getLocalDatacenter()
                    + " keyspace=" + s.getKeyspace(), store);
        }
        if (into.equals("s3")) {
            String r = region == null ? TargetOptions.DEFAULT_REGION : region;
            return new S3Destination(S3Clients.create(endpoint, r, accessKeyFile, secretKeyFile),
                    "s3 " + (endpoint == null ? "(SDK endpoint)" : endpoint), replayVersions);
        }
        throw new IllegalArgumentException("--into " + into + ": expected embedded:/path, cassandra or s3");
    }
}
