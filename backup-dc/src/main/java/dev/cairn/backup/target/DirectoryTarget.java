package dev.cairn.backup.target;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * An archive in a local directory (or a mounted file system). A put writes a temporary file
 * beside its name and renames it; {@link #sync()} forces the files and directories written
 * since the last sync, so that a run pays for durability once per checkpoint, not per blob.
 */
public final class DirectoryTarget implements Target {
    static final String TEMP_MARK = ".tmp-";

    private final Path root;
    private final Object pendingLock = new Object();
    private List<Path> pendingFiles = new ArrayList<>();
    private Set<Path> pendingDirs = new HashSet<>();

    public DirectoryTarget(Path root) throws IOException {
        this.root = root.toAbsolutePath().normalize();
        try {
            Files.createDirectories(this.root);
        } catch (IOException e) {
            throw fail("cannot create the directory", e);
        }
        if (!Files.isWritable(this.root)) {
            throw new IOException(describe() + ": the directory is not writable");
        }
    }

    public Path root() {
        return root;
    }

    @Override
    public String describe() {
        return "dir:" + root;
    }

    private Path path(String name) {
        if (name.startsWith("/") || name.contains("..")) {
            throw new IllegalArgumentException("bad archive file name " + name);
        }
        return root.resolve(name);
    }

    @Override
    public long size(String name) throws IOException {
        try {
            return Files.readAttributes(path(name), BasicFileAttributes.class).size();
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException e) {
            throw fail("cannot stat " + name, e);
        }
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        try {
            SeekableByteChannel ch = Files.newByteChannel(path(name), StandardOpenOption.READ);
            ch.position(offset);
            return Channels.newInputStream(ch);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw fail("cannot read " + name, e);
        }
    }

    @Override
    public void put(String name, InputStream in, long size) throws IOException {
        Path file = path(name);
        Path temp = createTemp(file);
        try {
            try (OutputStream out = Files.newOutputStream(temp, StandardOpenOption.WRITE)) {
                in.transferTo(out);
            }
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (SourceReadException e) {
            Files.deleteIfExists(temp);
            throw e;
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw fail("cannot write " + name, e);
        } catch (RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        pending(file);
    }

    @Override
    public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
        Path file = path(name);
        Path temp = createTemp(file);
        try {
            Files.write(temp, bytes);
            force(temp);
            Files.createLink(file, temp);
            force(file.getParent());
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            throw fail("cannot write " + name, e);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private Path createTemp(Path file) throws IOException {
        try {
            Files.createDirectories(file.getParent());
            return Files.createFile(file.resolveSibling(file.getFileName() + TEMP_MARK + UUID.randomUUID()));
        } catch (IOException e) {
            throw fail("cannot create a file in " + root.relativize(file.getParent()), e);
        }
    }

    private void pending(Path file) {
        synchronized (pendingLock) {
            pendingFiles.add(file);
            pendingDirs.add(file.getParent());
        }
    }

    @Override
    public void list(String prefix, EntryVisitor visitor) throws IOException {
        int slash = prefix.lastIndexOf('/');
        Path dir = slash < 0 ? root : path(prefix.substring(0, slash));
        if (!Files.isDirectory(dir)) {
            return;
        }
        walk(dir, prefix, visitor);
    }

    private void walk(Path dir, String prefix, EntryVisitor visitor) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = root.relativize(p).toString().replace(java.io.File.separatorChar, '/');
                BasicFileAttributes attrs;
                try {
                    attrs = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (NoSuchFileException gone) {
                    continue;
                }
                if (attrs.isDirectory()) {
                    if ((name + "/").startsWith(prefix) || prefix.startsWith(name + "/")) {
                        walk(p, prefix, visitor);
                    }
                } else if (name.startsWith(prefix) && !name.contains(TEMP_MARK)) {
                    visitor.visit(new Entry(name, attrs.size(), attrs.lastModifiedTime().toMillis()));
                }
            }
        } catch (NoSuchFileException gone) {
            // removed while listing
        } catch (IOException e) {
            throw fail("cannot list " + prefix, e);
        }
    }

    @Override
    public void delete(String name) throws IOException {
        try {
            Files.deleteIfExists(path(name));
        } catch (IOException e) {
            throw fail("cannot delete " + name, e);
        }
    }

    @Override
    public void sync() throws IOException {
        List<Path> files;
        Set<Path> dirs;
        synchronized (pendingLock) {
            files = pendingFiles;
            dirs = pendingDirs;
            pendingFiles = new ArrayList<>();
            pendingDirs = new HashSet<>();
        }
        try {
            for (Path f : files) {
                force(f);
            }
            for (Path d : dirs) {
                force(d);
            }
        } catch (IOException e) {
            throw fail("cannot sync", e);
        }
    }

    private static void force(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (NoSuchFileException replaced) {
            // replaced or deleted since; its successor was forced by its own writer
        }
    }

    private IOException fail(String what, IOException cause) {
        String detail = cause instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
                ? fs.getReason() : cause.toString();
        return new IOException(describe() + ": " + what + ": " + detail, cause);
    }

    @Override
    public void close() {
    }
}
