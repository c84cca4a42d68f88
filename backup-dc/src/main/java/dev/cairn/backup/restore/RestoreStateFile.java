package dev.cairn.backup.restore;

import dev.cairn.backup.run.Json;
import dev.cairn.backup.target.Target;
import dev.cairn.backup.time.JobClock;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A restore's state file beside its destination: the progress {@link Restore} records after each batch,
 * and the multipart uploads its destination is starting or has started and not completed
 * ({@link UploadJournal}).
 * Each write is made durable ({@link Target#sync}) before it returns. Uploads started while a
 * write is under way are recorded together by the next one, so that concurrent uploads share
 * writes instead of queueing for one each. Thread-safe.
 */
final class RestoreStateFile implements UploadJournal {
    private final Target directory;
    private final String name;
    private final Object lock = new Object();
    private Restore.State state;
    private final Set<PendingUpload> pending = new LinkedHashSet<>();
    private long changes;
    private final Object writing = new Object();
    private long written;
    private final JobClock clock;

    RestoreStateFile(Target directory, String name, Restore.State state, JobClock clock) {
        this.directory = directory;
        this.clock = clock;
        this.name = name;
        this.state = state;
    }

    /** Records the restore's progress, with the uploads in flight. */
    void save(Restore.State next) throws IOException {
        long ticket;
        synchronized (lock) {
            state = next;
            ticket = ++changes;
        }
        writeThrough(ticket);
    }

    @Override
    public PendingUpload intent(String bucket, String key) {
        return PendingUpload.intent(bucket, key, clock.millis());
    }

    @Override
    public void started(PendingUpload intent) throws IOException {
        long ticket;
        synchronized (lock) {
            pending.add(intent);
            ticket = ++changes;
        }
        writeThrough(ticket);
    }

    @Override
    public void identified(PendingUpload intent, PendingUpload upload) {
        synchronized (lock) {
            pending.remove(intent);
            pending.add(upload);
        }
    }

    @Override
    public void ended(PendingUpload upload) {
        synchronized (lock) {
            pending.remove(upload);
        }
    }

    private void writeThrough(long ticket) throws IOException {
        synchronized (writing) {
            if (written >= ticket) {
                return;
            }
            Restore.State snapshot;
            long upTo;
            synchronized (lock) {
                snapshot = state.withUploads(List.copyOf(pending));
                upTo = changes;
            }
            directory.put(name, Json.write(snapshot));
            directory.sync();
            written = upTo;
        }
    }
}
