package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.cli.ExitCode;
import dev.cairn.backup.run.HolderProcess;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.run.Lease;
import dev.cairn.backup.run.RunState;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.ForwardingBackupSource;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.time.JobClock;
import dev.cairn.store.BucketAcl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive's lock left by a job killed outright (kill -9) on this host: a lock file naming a
 * process that is gone is stale at once — the next run takes it without waiting out the lease,
 * and releases the checkpoint the dead run held on the service — and {@code list} shows its run as
 * interrupted, not running. A lock naming a live process still holds; a pid now naming another
 * process (reused) does not.
 */
class StaleLockTest {
    private static final String LEFT_HELD = "checkpoint of http://service: 0000000000001-dead";

    @TempDir
    Path dir;
    private EmbeddedStoreDir store;
    private DirectoryTarget target;
    private final List<String> released = new CopyOnWriteArrayList<>();

    @BeforeEach
    void seed() throws IOException {
        store = EmbeddedStoreDir.open(dir.resolve("source"));
        store.store().createBucket("photos", BucketAcl.PRIVATE);
        for (int i = 0; i < 20; i++) {
            Seed.put(store.store(), "photos", "k" + i, Seed.bytes(300 + i, i), Seed.attributes(i));
        }
        target = new DirectoryTarget(dir.resolve("archive"));
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    private BackupSource source() {
        return new ForwardingBackupSource(new ObjectStoreSource(store.store(), "test store", 10, null)) {
            @Override
            public boolean releaseLeftBehind(String heldOutside) {
                released.add(heldOutside);
                return true;
            }
        };
    }

    private record Outcome(int exit, String out) {
    }

    private Outcome cli(String... args) {
        return cli(JobClock.SYSTEM, args);
    }

    private Outcome cli(JobClock clock, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        PrintStream both = new PrintStream(out, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        try {
            int exit = Main.commandLine(o -> source(), clock).execute(args);
            return new Outcome(exit, out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }

    private Outcome backup() {
        return backup(JobClock.SYSTEM);
    }

    private Outcome backup(JobClock clock) {
        return cli(clock, "run", "--source", "embedded", "--target", "dir:" + target.root());
    }

    /** A lock file as a run holding it writes, valid for ten more minutes, naming this holder. */
    private void lockedBy(HolderProcess holder) throws IOException {
        long now = System.currentTimeMillis();
        target.put(ArchiveLayout.WRITER_LOCK, Json.write(new Lease.Record("killed-job", "backup of test store", now,
                now + 600_000, holder, LEFT_HELD)));
    }

    /** The state of a run that never finished, as a killed run leaves it. */
    private void unfinishedRun() throws IOException {
        target.put(ArchiveLayout.runState("20260101T000000Z-dead"), Json.write(new RunState("20260101T000000Z-dead",
                null, System.currentTimeMillis(), "another store", List.of(), "another store")));
    }

    /** A pid that names no process of this host. */
    private static long deadPid() {
        for (long pid = (1 << 22) - 1; pid > 1; pid--) { // the largest pid Linux hands out, and down
            if (ProcessHandle.of(pid).isEmpty()) {
                return pid;
            }
        }
        throw new IllegalStateException("every pid is in use");
    }

    @Test
    void aLockOfAProcessGoneFromThisHostIsTakenAtOnceAndItsCheckpointReleased() throws IOException {
        HolderProcess me = HolderProcess.current();
        lockedBy(new HolderProcess(me.host(), me.pidSpace(), deadPid(), "12345"));
        unfinishedRun();
        Outcome list = cli("list", "--target", "dir:" + target.root());
        assertTrue(list.out.contains("20260101T000000Z-dead") && list.out.contains("no: interrupted"), list.out);
        assertTrue(!list.out.contains("running"), list.out);

        long t0 = System.nanoTime();
        Outcome run = backup();
        assertEquals(ExitCode.OK, run.exit, run.out);
        assertTrue(System.nanoTime() - t0 < 60_000_000_000L, "did not wait out the lease");
        assertTrue(run.out.contains("its process is gone"), run.out);
        assertEquals(List.of(LEFT_HELD), released, "the dead run's checkpoint is released on the service");
        assertEquals(1, Catalog.backups(target).size());
    }

    @Test
    void aLockOfALiveProcessHolds() throws IOException {
        lockedBy(HolderProcess.current());
        unfinishedRun();
        Outcome list = cli("list", "--target", "dir:" + target.root());
        assertTrue(list.out.contains("no: running (killed-job)"), list.out);
        assertEquals(ExitCode.LOCKED, backup().exit);
        assertTrue(released.isEmpty());
        assertTrue(Catalog.backups(target).isEmpty());
    }

    @Test
    void aPidNowNamingAnotherProcessIsNotTheHolder() throws IOException {
        HolderProcess me = HolderProcess.current();
        lockedBy(new HolderProcess(me.host(), me.pidSpace(), me.pid(), me.start() + "0"));
        Outcome run = backup();
        assertEquals(ExitCode.OK, run.exit, run.out);
        assertEquals(List.of(LEFT_HELD), released);
    }

    @Test
    void aHolderOnAnotherHostHoldsUntilItsLeaseExpires() throws IOException {
        HolderProcess me = HolderProcess.current();
        lockedBy(new HolderProcess("another-" + me.host(), me.pidSpace(), deadPid(), "12345"));
        ManualClock clock = ManualClock.startingNow();
        assertEquals(ExitCode.LOCKED, backup(clock).exit);
        clock.advance(Duration.ofMinutes(9));
        assertEquals(ExitCode.LOCKED, backup(clock).exit, "a minute before its lease expires");
        clock.advance(Duration.ofMinutes(2));
        Outcome run = backup(clock);
        assertEquals(ExitCode.OK, run.exit, run.out);
        assertTrue(run.out.contains("it expired"), run.out);
        assertEquals(List.of(LEFT_HELD), released, "what the expired run held is released");
    }
}
