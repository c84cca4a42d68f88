package dev.cairn.backup.restore;

import dev.cairn.backup.time.JobClock;
import java.io.IOException;

/**
 * Where a destination records the multipart uploads it starts, so that a restore killed mid-upload
 * ({@code kill -9}: nothing runs to abort it) can abort them when it resumes. Thread-safe.
 */
public interface UploadJournal {
    /** An intent to start an upload of {@code key}, dated by the job's clock. */
    PendingUpload intent(String bucket, String key);

    /**
     * Records the intent ({@link PendingUpload#isIntent}) durably before it returns;
     * CreateMultipartUpload is sent after.
     */
    void started(PendingUpload intent) throws IOException;

    /**
     * The destination answered the intent with this upload: it replaces the intent from the next
     * write on (not forced to disk: until then the intent covers it).
     */
    void identified(PendingUpload intent, PendingUpload upload);

    /** The upload was completed or aborted: it need not be aborted on resume. */
    void ended(PendingUpload upload);

    UploadJournal NONE = new UploadJournal() {
        @Override
        public PendingUpload intent(String bucket, String key) {
            return PendingUpload.intent(bucket, key, JobClock.SYSTEM.millis());
        }

        @Override
        public void started(PendingUpload intent) {
        }

        @Override
        public void identified(PendingUpload intent, PendingUpload upload) {
        }

        @Override
        public void ended(PendingUpload upload) {
        }
    };
}
