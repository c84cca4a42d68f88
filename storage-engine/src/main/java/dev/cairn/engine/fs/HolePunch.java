package dev.cairn.engine.fs;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Gives a range of a file's blocks back to the file system —
 * {@code fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)} — for {@link LocalFileSystem#punchHole}.
 * The file keeps its size; the range reads as zeros. A file with another hard link is left alone.
 * Where the platform or file system refuses (not Linux, ext3, some network file systems), logs
 * once per kind of refusal and returns 0.
 *
 * <p>Thread-safe: stateless apart from the once-only log.
 */
final class HolePunch {
    /** {@code FALLOC_FL_PUNCH_HOLE} from linux/falloc.h; the kernel requires KEEP_SIZE with it. */
    static final int FALLOC_FL_PUNCH_HOLE = 0x02;

    private HolePunch() {
    }

    /** Punches {@code [offset, offset + length)}; returns the bytes punched, 0 when nothing was. */
    static long punch(Path path, long offset, long length) throws IOException {
        if (CLibrary.LIBC == null || length <= 0) {
            return 0;
        }
        Object links = Files.getAttribute(path, "unix:nlink");
        if (!(links instanceof Integer n) || n != 1) {
            return 0;
        }
        int fd;
        try {
            fd = CLibrary.LIBC.open(path.toString(), CLibrary.O_WRONLY | CLibrary.O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new IOException("could not open " + path + " to give back its dead bytes: errno " + e.getErrorCode());
        }
        try {
            CLibrary.LIBC.fallocate(fd, FALLOC_FL_PUNCH_HOLE | SpaceReservation.FALLOC_FL_KEEP_SIZE, offset, length);
            return length;
        } catch (LastErrorException e) {
            CLibrary.logOnce("punch-" + e.getErrorCode(), "the file system refused to punch holes (errno "
                    + e.getErrorCode() + "); dead values' space comes back only when value GC rewrites their file");
            return 0;
        } finally {
            CLibrary.closeQuietly(fd);
        }
    }
}
