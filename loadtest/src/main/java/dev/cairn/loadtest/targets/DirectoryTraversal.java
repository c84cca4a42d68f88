package dev.cairn.loadtest.targets;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A traversal of a directory tree, as a file-level backup of the classified-ads portal's NAS reads it (its move to Cassandra, docs/references.md): walk the
 * tree, read every regular file. Names are paths relative to the root, with '/'.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class DirectoryTraversal implements TraversalSource {

    private final Path root;

    public DirectoryTraversal(Path root) {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("traversal directory does not exist: " + root);
        }
        this.root = root;
    }

    @Override
    public String describe() {
        return "directory " + root;
    }

    @Override
    public void list(Predicate<String> sink) throws TargetException {
        try (Stream<Path> files = Files.walk(root)) {
            Iterator<Path> it = files.filter(Files::isRegularFile).iterator();
            while (it.hasNext()) {
                if (!sink.test(root.relativize(it.next()).toString().replace('\\', '/'))) {
                    return;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            throw new TargetException("io", "walking " + root + ": " + e, e);
        }
    }

    @Override
    public long read(String name) throws TargetException {
        byte[] buffer = new byte[64 << 10];
        long total = 0;
        try (InputStream in = Files.newInputStream(root.resolve(name))) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
            }
            return total;
        } catch (IOException e) {
            throw new TargetException("io", "reading " + name + ": " + e, e);
        }
    }

    @Override
    public void close() {
    }
}
