package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The test cluster: started once per test JVM by {@code bin/cassandra-cluster} on 127.0.0.31-33 (see FIRST)
 * (two nodes in "serving", one in "backup"), state under {@code target/cassandra-test}, stopped
 * by a shutdown hook when this JVM started it (also when tests fail). A cluster already running
 * there is used as it is and left running.
 *
 * <p>Thread-safety: every method is synchronized on the class.
 */
public final class LocalCassandraCluster {
    /** Node 1's last address octet; CAIRN_TEST_CASSANDRA_FIRST moves the cluster so two checkouts can test at once. */
    private static final int FIRST = Integer.parseInt(System.getenv().getOrDefault("CAIRN_TEST_CASSANDRA_FIRST", "31"));
    public static final int SERVING_NODES = 2;
    /** The serving nodes, as {@code cairn.cassandra.contact-points}. */
    public static final String CONTACT_POINTS = address(1) + "," + address(2);
    /**
     * A system property holding {@link #CONTACT_POINTS}, for annotations that need a constant:
     * {@code "cairn.cassandra.contact-points=${" + CONTACT_POINTS_PROPERTY + "}"}.
     */
    public static final String CONTACT_POINTS_PROPERTY = "cairn.test.cassandra.contact-points";

    static {
        System.setProperty(CONTACT_POINTS_PROPERTY, CONTACT_POINTS);
    }
    /** The node of datacenter "backup". */
    public static final String BACKUP_CONTACT_POINT = address(3);
    /** The keyspace the service runs on in the S3 tests. */
    public static final String SERVICE_KEYSPACE = "s3test";
    public static final int BACKUP_NODES = 1;
    private static final String NET = "127.0.0";
    private static final Path SCRIPT = repositoryRoot().resolve("bin/cassandra-cluster");
    private static final Path DIR = Path.of("target", "cassandra-test").toAbsolutePath();
    private static boolean started;
    private static CqlSession session;

    private LocalCassandraCluster() {
    }

    /** The checkout's root: the nearest directory above the working directory that holds bin/cassandra-cluster. */
    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isExecutable(p.resolve("bin/cassandra-cluster"))) {
                return p;
            }
        }
        throw new IllegalStateException("bin/cassandra-cluster not found above " + Path.of("").toAbsolutePath());
    }

    public static String address(int node) {
        return NET + "." + (FIRST + node - 1) + ":9042";
    }

    /** Settings for the test cluster and the given keyspace; starts the cluster on first use. */
    public static synchronized CassandraSettings settings(String keyspace) {
        ensureStarted();
        CassandraSettings s = new CassandraSettings();
        List<String> serving = new ArrayList<>();
        for (int n = 1; n <= SERVING_NODES; n++) {
            serving.add(address(n));
        }
        s.setContactPoints(serving);
        s.setKeyspace(keyspace);
        s.setRequestTimeout(java.time.Duration.ofSeconds(10));
        return s;
    }

    /** Starts the cluster when it is not running yet. */
    public static synchronized void ensureRunning() {
        ensureStarted();
    }

    /** One session to the serving datacenter shared by the tests of this JVM; do not close it. */
    public static synchronized CqlSession sharedSession() {
        if (session == null) {
            session = CassandraSessions.connect(settings("unused"));
            CqlSession s = session;
            Runtime.getRuntime().addShutdownHook(new Thread(s::close, "cassandra-test-session"));
        }
        return session;
    }

    public static synchronized void stopNode(int node) {
        run("stop-node", Integer.toString(node));
    }

    /** SIGKILL of one node, as a crash: no flush, no drain. */
    public static synchronized void killNode(int node) {
        run("kill-node", Integer.toString(node));
    }

    public static synchronized void startNode(int node) {
        run("start-node", Integer.toString(node));
    }

    private static void ensureStarted() {
        if (started) {
            return;
        }
        String status = run("status");
        boolean alreadyUp = !status.contains("stopped") && !status.contains("does not answer");
        if (!alreadyUp) {
            deleteEarlierState();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> run("stop"), "cassandra-test-cluster-stop"));
            run("start");
        }
        started = true;
    }

    /** A cluster this JVM starts starts empty. */
    private static void deleteEarlierState() {
        if (!Files.isDirectory(DIR)) {
            return;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(DIR)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String run(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(SCRIPT.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("CAIRN_CASSANDRA_DIR", DIR.toString());
        pb.environment().put("CAIRN_CASSANDRA_NET", NET);
        pb.environment().put("CAIRN_CASSANDRA_FIRST", Integer.toString(FIRST));
        pb.environment().put("CAIRN_CASSANDRA_SERVING", Integer.toString(SERVING_NODES));
        pb.environment().put("CAIRN_CASSANDRA_BACKUP", Integer.toString(BACKUP_NODES));
        try {
            Files.createDirectories(DIR);
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("bin/cassandra-cluster " + String.join(" ", args) + " did not finish");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            System.out.print(text);
            if (p.exitValue() != 0) {
                throw new IllegalStateException("bin/cassandra-cluster " + String.join(" ", args)
                        + " failed (" + p.exitValue() + "):\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
