package dev.cairn.service.console;

/**
 * What the console asks before it shows or does anything: may this access key do this to this
 * bucket? The console enforces every answer on the server and hides what is refused. The
 * service's roles answer it ({@link RoleConsoleAccess}).
 *
 * <p>Implementations are thread-safe.
 */
public interface ConsoleAccess {

    /** What the console does to a bucket. */
    enum Action {
        /** See the bucket, list its keys and counts; with a null bucket: use the console at all. */
        LIST,
        /** Read objects: thumbnails, details, downloads, links. */
        READ,
        /** Upload objects. */
        WRITE,
        /** Delete objects. */
        DELETE,
        /** Create and delete the bucket, switch public-read and versioning; with a null bucket: the operations page, creating buckets. */
        ADMIN
    }

    /** Whether {@code accessKey} may do {@code action} on {@code bucket} (null: the service as a whole). */
    boolean may(String accessKey, String bucket, Action action);
}
