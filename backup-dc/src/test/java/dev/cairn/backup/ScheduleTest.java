package dev.cairn.backup;

import dev.cairn.backup.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.time.JobClock;
import dev.cairn.store.BucketAcl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backup schedule} through the command line, on a clock two seconds before the firing: the
 * run starts when the clock reaches it; two schedulers on one archive fire at the same minute and
 * exactly one runs, the other skips its firing (the archive's lock), and no run overlaps another.
 */
@Timeout(60)
class ScheduleTest {
    @TempDir
    Path dir;
    private EmbeddedStoreDir source;
    private DirectoryTarget target;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    @BeforeEach
    void seed() throws IOException {
        source = EmbeddedStoreDir.open(dir.resolve("source"));
        source.store().createBucket("photos", BucketAcl.PRIVATE);
        for (int i = 0; i < 40; i++) {
            Seed.put(source.store(), "photos", "k" + i, Seed.bytes(200 + i, i), Seed.attributes(i));
        }
        target = new DirectoryTarget(dir.resolve("archive"));
    }

    @AfterEach
    void close() throws IOException {
        source.close();
    }

    /** Today's 03:59:58 (UTC): the next 04:00 is two seconds away. */
    private static ZonedDateTime twoSecondsBeforeFour() {
        return ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS).withHour(3).withMinute(59).withSecond(58);
    }

    /** The system's clock shifted to {@link #twoSecondsBeforeFour()}: its firing comes in two real seconds. */
    private static JobClock shiftedToTwoSecondsBeforeFour() {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        return JobClock.of(Clock.offset(Clock.system(ZoneOffset.UTC), Duration.between(now, twoSecondsBeforeFour())));
    }

    /** The store's rows, 30 ms each, counting the scans that run at once. */
    private BackupSource slowSource() {
        ObjectStoreSource inner = new ObjectStoreSource(source.store(), "test store", 10, null);
        return new BackupSource() {
            public String describe() {
                return inner.describe();
            }

            public List<dev.cairn.store.BucketInfo> buckets() throws IOException {
                return inner.buckets();
            }

            public List<Split> splits() throws IOException {
                return inner.splits();
            }

            public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    inner.scan(split, resumeAfter, (bucket, row, partSizes, position) -> {
                        try {
                            Thread.sleep(30);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new java.io.InterruptedIOException();
                        }
                        sink.accept(bucket, row, partSizes, position);
                    });
                } finally {
                    running.decrementAndGet();
                }
            }

            public InputStream openContent(String sha256) throws IOException {
                return inner.openContent(sha256);
            }

            public void close() {
            }
        };
    }

    private record Outcome(int exit, String log) {
    }

    private Outcome schedule(JobClock clock) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        var cl = Main.commandLine(o -> slowSource(), clock);
        cl.setErr(new java.io.PrintWriter(new PrintStream(log, true, StandardCharsets.UTF_8), true));
        int exit = cl.execute("schedule", "--cron", "0 4 * * *", "--max-runs", "1", "--source", "embedded",
                "--target", "dir:" + target.root(), "--checkpoint-rows", "10");
        return new Outcome(exit, log.toString(StandardCharsets.UTF_8));
    }

    /** Exit code and log of a schedule whose first firing is hours away, with the real sources. */
    private Outcome scheduleFarAhead(String... sourceOptions) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
            String cron = now.getMinute() + " " + (now.getHour() + 12) % 24 + " * * *";
            var cl = Main.commandLine(BackupSources::open, JobClock.of(Clock.system(ZoneOffset.UTC)));
            cl.setErr(new java.io.PrintWriter(new PrintStream(log, true, StandardCharsets.UTF_8), true));
            List<String> args = new ArrayList<>(List.of("schedule", "--cron", cron, "--max-runs", "1",
                    "--target", "dir:" + target.root()));
            args.addAll(List.of(sourceOptions));
            int exit = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> cl.execute(args.toArray(String[]::new)),
                    "the schedule waited for its firing instead of checking its options at start");
            return new Outcome(exit, log.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
        }
    }

    @Test
    void aScheduleChecksItsOptionsAtStartAsARunDoes() throws IOException {
        Path access = Files.writeString(dir.resolve("access"), "AKID\n");
        Path secret = Files.writeString(dir.resolve("secret"), "secret\n");
        Outcome missingKey = scheduleFarAhead("--source", "embedded", "--service-url", "http://127.0.0.1:9",
                "--admin-access-key-file", dir.resolve("no-such-key").toString(), "--admin-secret-key-file", secret.toString());
        assertEquals(ExitCode.USAGE, missingKey.exit, missingKey.log);
        assertTrue(missingKey.log.contains("no-such-key"), missingKey.log);

        Outcome badUrl = scheduleFarAhead("--source", "embedded", "--service-url", "127.0.0.1:9000",
                "--admin-access-key-file", access.toString(), "--admin-secret-key-file", secret.toString());
        assertEquals(ExitCode.USAGE, badUrl.exit, badUrl.log);
        assertTrue(badUrl.log.contains("--service-url 127.0.0.1:9000"), badUrl.log);

        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        Outcome unreachable = scheduleFarAhead("--source", "embedded", "--service-url", "http://127.0.0.1:" + closedPort,
                "--admin-access-key-file", access.toString(), "--admin-secret-key-file", secret.toString());
        assertEquals(ExitCode.FAILED, unreachable.exit, unreachable.log);
        assertTrue(unreachable.log.contains("schedule: not started: cannot reach the service"), unreachable.log);
        assertTrue(Catalog.runs(target).isEmpty() && Catalog.backups(target).isEmpty(), "nothing ran");
    }

    @Test
    void aFiringComesOnTimeAndBacksUp() throws IOException {
        ZonedDateTime start = twoSecondsBeforeFour();
        ManualClock clock = new ManualClock(start.toInstant());
        Outcome o = schedule(clock);
        assertEquals(ExitCode.OK, o.exit, o.log);
        Catalog.Backup backup = Catalog.latest(target);
        assertEquals(start.plusSeconds(2).toInstant(), java.time.Instant.ofEpochMilli(backup.header().startedMillis()),
                "the run started when the schedule fired, having waited for it: " + o.log);
        assertEquals(1, Catalog.backups(target).size());
        assertEquals(40, Catalog.latest(target).trailer().objects());
    }

    @Test
    void twoSchedulersOnOneArchiveRunOneAtATime() throws Exception {
        PrintStream savedErr = System.err;
        ByteArrayOutputStream jobLog = new ByteArrayOutputStream();
        System.setErr(new PrintStream(jobLog, true, StandardCharsets.UTF_8));
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            JobClock clock = shiftedToTwoSecondsBeforeFour();
            List<Future<Outcome>> schedulers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                schedulers.add(two.submit(() -> schedule(clock)));
            }
            List<Integer> exits = new ArrayList<>();
            for (Future<Outcome> f : schedulers) {
                exits.add(f.get(50, TimeUnit.SECONDS).exit);
            }
            exits.sort(null);
            String log = jobLog.toString(StandardCharsets.UTF_8);
            assertEquals(List.of(ExitCode.OK, ExitCode.LOCKED), exits, log);
            assertTrue(log.contains("this firing is skipped"), log);
            assertEquals(2, log.split("run ended with exit code", -1).length - 1, "both schedulers fired: " + log);
            assertEquals(1, mostAtOnce.get(), "never two scans at once: " + log);
            assertEquals(1, Catalog.backups(target).size(), "one backup: " + log);
            assertTrue(Catalog.runs(target).isEmpty(), "no unfinished run left: " + log);
        } finally {
            two.shutdownNow();
            System.setErr(savedErr);
        }
    }
}
