package dev.cairn.backup.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.Target;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An attempt's record is written to the archive when its copies change, not at every checkpoint. */
class AttemptRecordTest {
    private static final String NAME = ArchiveLayout.attempt("run", "a1");

    @TempDir
    Path dir;

    @Test
    void anUnchangedAttemptIsNotWrittenAgain() throws Exception {
        DirectoryTarget directory = new DirectoryTarget(dir);
        AtomicInteger writes = new AtomicInteger();
        Target counting = (Target) Proxy.newProxyInstance(Target.class.getClassLoader(), new Class<?>[] {Target.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("put") && NAME.equals(args[0])) {
                        writes.incrementAndGet();
                    }
                    try {
                        return method.invoke(directory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        AtomicReference<RunState.Attempt> copied = new AtomicReference<>(new RunState.Attempt(0, 0));
        try (Lease lease = Lease.acquire(directory, "lock", "test", Duration.ofMinutes(1))) {
            AttemptRecord record = new AttemptRecord(counting, NAME, copied::get, lease, Duration.ofHours(1));
            record.record();
            record.record();
            assertEquals(1, writes.get(), "the first record is written, the same one again is not");
            copied.set(new RunState.Attempt(3, 300));
            record.record();
            record.record();
            assertEquals(2, writes.get(), "a change is written once");
            record.close();
            assertEquals(2, writes.get(), "closing writes nothing new when nothing changed");
            assertEquals(copied.get(), AttemptRecord.total(directory, "run"));
        }
    }
}
