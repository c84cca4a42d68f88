package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Sends each operation to one of several file systems chosen by the path's directory prefix, so
 * that the tiers of one engine can sit on different (real or simulated) devices: for example the
 * capacity directory on a {@link SimulatedDeviceFileSystem} and everything else on the local
 * disk. The longest matching prefix wins; a path under no prefix goes to the default file system.
 * Prefixes match whole path components ({@code /data/hdd} covers {@code /data/hdd/x}, not
 * {@code /data/hdd2}) after both paths are made absolute and normalized.
 *
 * <p>A rename or hard link between two routes fails with an {@link IOException} naming both:
 * it would be a copy, which the contract's atomic rename cannot promise. Listing a directory
 * asks only its own route, so a prefix shows up in its parent's listing only if the parent's
 * file system has it.
 *
 * <p>Thread-safe if every routed file system is: the routes are fixed at construction.
 */
public final class RoutingFileSystem implements FileSystem {

    private record Route(Path prefix, FileSystem fileSystem) {
    }

    private final FileSystem defaultFileSystem;
    /** Longest prefix first, so that the first match is the most specific one. */
    private final List<Route> routes;

    private RoutingFileSystem(FileSystem defaultFileSystem, Map<Path, FileSystem> routes) {
        this.defaultFileSystem = defaultFileSystem;
        List<Route> sorted = new ArrayList<>();
        routes.forEach((prefix, fs) -> sorted.add(new Route(prefix, fs)));
        sorted.sort(Comparator.comparingInt((Route r) -> r.prefix().getNameCount()).reversed());
        this.routes = List.copyOf(sorted);
    }

    /** A builder whose paths outside every route go to {@code defaultFileSystem}. */
    public static Builder builder(FileSystem defaultFileSystem) {
        return new Builder(defaultFileSystem);
    }

    /** The file system that serves {@code path}. */
    public FileSystem routeOf(Path path) {
        Path p = normalize(path);
        for (Route r : routes) {
            if (p.startsWith(r.prefix())) {
                return r.fileSystem();
            }
        }
        return defaultFileSystem;
    }

    private String describeRoute(Path path) {
        Path p = normalize(path);
        for (Route r : routes) {
            if (p.startsWith(r.prefix())) {
                return "the route of " + r.prefix();
            }
        }
        return "the default route";
    }

    private static Path normalize(Path path) {
        return path.toAbsolutePath().normalize();
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        return routeOf(path).create(path, lifetime);
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        return routeOf(path).openRead(path);
    }

    @Override
    public ReadableFile openReadAroundPageCache(Path path) throws IOException {
        return routeOf(path).openReadAroundPageCache(path);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        sameRoute("rename", source, target).rename(source, target);
    }

    @Override
    public void delete(Path path) throws IOException {
        routeOf(path).delete(path);
    }

    @Override
    public void link(Path existing, Path link) throws IOException {
        sameRoute("link", existing, link).link(existing, link);
    }

    private FileSystem sameRoute(String operation, Path from, Path to) throws IOException {
        FileSystem a = routeOf(from);
        FileSystem b = routeOf(to);
        if (a != b) {
            throw new IOException("cannot " + operation + " " + from + " (on " + describeRoute(from) + ") to " + to
                    + " (on " + describeRoute(to) + "): they are on different file systems");
        }
        return a;
    }

    @Override
    public long punchHole(Path path, long offset, long length) throws IOException {
        return routeOf(path).punchHole(path, offset, length);
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return routeOf(path).exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return routeOf(path).size(path);
    }

    @Override
    public List<String> list(Path directory) throws IOException {
        return routeOf(directory).list(directory);
    }

    @Override
    public void createDirectories(Path directory) throws IOException {
        routeOf(directory).createDirectories(directory);
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        routeOf(directory).syncDirectory(directory);
    }

    @Override
    public long usableSpace(Path directory) throws IOException {
        return routeOf(directory).usableSpace(directory);
    }

    @Override
    public AutoCloseable lock(Path path) throws IOException {
        return routeOf(path).lock(path);
    }

    /** Not thread-safe. */
    public static final class Builder {
        private final FileSystem defaultFileSystem;
        private final Map<Path, FileSystem> routes = new LinkedHashMap<>();

        private Builder(FileSystem defaultFileSystem) {
            this.defaultFileSystem = Objects.requireNonNull(defaultFileSystem, "defaultFileSystem");
        }

        /** Sends every path under {@code prefix} (and {@code prefix} itself) to {@code fileSystem}. */
        public Builder route(Path prefix, FileSystem fileSystem) {
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(fileSystem, "fileSystem");
            Path p = normalize(prefix);
            if (routes.containsKey(p)) {
                throw new IllegalArgumentException("two routes for " + p);
            }
            routes.put(p, fileSystem);
            return this;
        }

        public RoutingFileSystem build() {
            return new RoutingFileSystem(defaultFileSystem, routes);
        }
    }
}
