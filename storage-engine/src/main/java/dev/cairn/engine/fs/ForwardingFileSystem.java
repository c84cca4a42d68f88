package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@link FileSystem} that passes every call to another; decorators override what they change.
 * Thread-safe if the delegate is.
 */
public abstract class ForwardingFileSystem implements FileSystem {
    protected final FileSystem delegate;

    protected ForwardingFileSystem(FileSystem delegate) {
        if (delegate == null) {
            throw new IllegalArgumentException("delegate file system is null");
        }
        this.delegate = delegate;
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        return delegate.create(path, lifetime);
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        return delegate.openRead(path);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        delegate.rename(source, target);
    }

    @Override
    public void delete(Path path) throws IOException {
        delegate.delete(path);
    }

    @Override
    public void link(Path existing, Path link) throws IOException {
        delegate.link(existing, link);
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return delegate.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return delegate.size(path);
    }

    @Override
    public List<String> list(Path directory) throws IOException {
        return delegate.list(directory);
    }

    @Override
    public void createDirectories(Path directory) throws IOException {
        delegate.createDirectories(directory);
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        delegate.syncDirectory(directory);
    }

    @Override
    public long usableSpace(Path directory) throws IOException {
        return delegate.usableSpace(directory);
    }

    @Override
    public long punchHole(Path path, long offset, long length) throws IOException {
        return delegate.punchHole(path, offset, length);
    }

    @Override
    public AutoCloseable lock(Path path) throws IOException {
        return delegate.lock(path);
    }
}
