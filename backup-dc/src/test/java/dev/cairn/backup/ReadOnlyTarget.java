package dev.cairn.backup;

import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;

/**
 * An archive that can be read and never written, as one behind a read-only key or on a
 * write-protected directory is (a file mode does not stop root, who runs some test machines).
 */
final class ReadOnlyTarget implements Target {
    private final Target archive;

    ReadOnlyTarget(Target archive) {
        this.archive = archive;
    }

    private AccessDeniedException refused(String name) {
        return new AccessDeniedException(archive.describe() + ": " + name, null, "the archive is read-only");
    }

    @Override
    public String describe() {
        return "read-only " + archive.describe();
    }

    @Override
    public long size(String name) throws IOException {
        return archive.size(name);
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        return archive.open(name, offset);
    }

    @Override
    public InputStream open(String name, long offset, long length) throws IOException {
        return archive.open(name, offset, length);
    }

    @Override
    public Staged stage(String name) throws IOException {
        throw refused(name);
    }

    @Override
    public void put(String name, InputStream in, long size) throws IOException {
        throw refused(name);
    }

    @Override
    public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
        throw refused(name);
    }

    @Override
    public void list(String prefix, EntryVisitor visitor) throws IOException {
        archive.list(prefix, visitor);
    }

    @Override
    public void delete(String name) throws IOException {
        throw refused(name);
    }

    @Override
    public void sync() {
        // nothing was written
    }

    @Override
    public void close() throws IOException {
        archive.close();
    }
}
