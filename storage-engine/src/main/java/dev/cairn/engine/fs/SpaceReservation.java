package dev.cairn.engine.fs;

import com.sun.jna.LastErrorException;
import java.nio.file.Path;

/**
 * Reserves a file's blocks ahead of its appends — {@code fallocate(FALLOC_FL_KEEP_SIZE)} — so that
 * a file written over minutes (an SSD cache segment) sits in extents set aside at once rather than
 * in whatever blocks were free at each append. Nothing is written and the file's size does not
 * change, so readers and recovery still see exactly the bytes appended. Where the platform or file
 * system refuses, logs once per kind of refusal and returns false.
 *
 * <p>Thread-safe: stateless apart from the once-only log.
 */
final class SpaceReservation {
    /** {@code FALLOC_FL_KEEP_SIZE} from linux/falloc.h. */
    static final int FALLOC_FL_KEEP_SIZE = 0x01;

    private SpaceReservation() {
    }

    /** Reserves {@code [0, bytes)} of the file at {@code path}; returns whether it was done. */
    public static boolean reserve(Path path, long bytes) {
        if (CLibrary.LIBC == null || bytes <= 0) {
            return false;
        }
        int fd;
        try {
            fd = CLibrary.LIBC.open(path.toString(), CLibrary.O_WRONLY | CLibrary.O_CLOEXEC);
        } catch (LastErrorException e) {
            CLibrary.logOnce("reserve-open-" + e.getErrorCode(), "could not open " + path
                    + " to reserve its space: errno " + e.getErrorCode());
            return false;
        }
        try {
            CLibrary.LIBC.fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, bytes);
            return true;
        } catch (LastErrorException e) {
            CLibrary.logOnce("reserve-" + e.getErrorCode(), "the file system refused to reserve space (errno "
                    + e.getErrorCode() + "); files grow as they are written");
            return false;
        } finally {
            CLibrary.closeQuietly(fd);
        }
    }
}
