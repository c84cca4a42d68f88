package dev.cairn.backup.restore;

import java.io.IOException;

/**
 * Where a destination records the multipart uploads it starts, so that a restore killed mid-upload
 * ({@code kill -9}: nothing runs to abort it) can abort them when it resumes. Thread-safe.
 */
public interface UploadJournal {
    /** Records the upload durably before it returns; the upload's first part is sent after. */
    void started(PendingUpload upload) throws IOException;

    /** The upload was completed or aborted: it need not be aborted on resume. */
    void ended(PendingUpload upload);

    UploadJournal NONE = new UploadJournal() {
        @Override
        public void started(PendingUpload upload) {
        }

        @Override
        public void ended(PendingUpload upload) {
        }
    };
}
