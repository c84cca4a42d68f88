package dev.cairn.store;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ForwardingFileSystem;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;

/** Holds back every memtable flush (the creation of a table file) while shut. Thread-safe. */
final class FlushGate extends ForwardingFileSystem {
    private boolean shut;

    FlushGate(FileSystem delegate) {
        super(delegate);
    }

    synchronized void shut() {
        shut = true;
    }

    synchronized void open() {
        shut = false;
        notifyAll();
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        if (path.getFileName().toString().endsWith(".sst")) {
            synchronized (this) {
                while (shut) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("waiting for the flush gate");
                    }
                }
            }
        }
        return delegate.create(path, lifetime);
    }
}
