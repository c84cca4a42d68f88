package dev.cairn.backup.restore;

/**
 * A multipart upload a restore is starting or has started at its destination and has not
 * completed or aborted yet. {@code uploadId} is null while it is only an intent: recorded before
 * CreateMultipartUpload is sent, so a kill before its answer is recorded still leaves a trace.
 * {@code intendedAtMillis}: the job's clock when the intent was recorded (null in state files
 * written before intents existed, which hold ids only).
 */
public record PendingUpload(String bucket, String key, String uploadId, Long intendedAtMillis) {
    /** An upload about to be started at {@code nowMillis}, the job's clock. */
    static PendingUpload intent(String bucket, String key, long nowMillis) {
        return new PendingUpload(bucket, key, null, nowMillis);
    }

    PendingUpload withId(String id) {
        return new PendingUpload(bucket, key, id, intendedAtMillis);
    }

    boolean isIntent() {
        return uploadId == null;
    }
}
