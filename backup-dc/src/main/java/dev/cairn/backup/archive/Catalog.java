package dev.cairn.backup.archive;

import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/** The backups of an archive: its manifests (complete backups) and its unfinished runs. */
public final class Catalog {
    private Catalog() {
    }

    private static final DateTimeFormatter ID_SECOND = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /**
     * A manifest found in the target. {@code trailer} is null and {@code problem} says why when
     * the manifest cannot be read; its checksum is checked by verify, not here.
     */
    public record Backup(String id, long size, ManifestHeader header, ManifestTrailer trailer, String problem) {
        public boolean readable() {
            return problem == null;
        }
    }

    /**
     * Every manifest, oldest first: by the start time its header records. An id names its start
     * to the second only (its suffix is random), so two backups begun in one second sort right
     * only by the header; a damaged manifest sorts by its id's second.
     */
    public static List<Backup> backups(Target target) throws IOException {
        List<Backup> out = new ArrayList<>();
        for (Target.Entry e : target.listAll(ArchiveLayout.MANIFESTS)) {
            String id = ArchiveLayout.manifestId(e.name());
            if (id != null) {
                out.add(read(target, id, e.size()));
            }
        }
        out.sort(Comparator.comparingLong(Catalog::startedMillis)
                .thenComparingLong(b -> b.header() == null ? Long.MAX_VALUE : b.header().finishedMillis())
                .thenComparing(Backup::id));
        return out;
    }

    private static long startedMillis(Backup b) {
        if (b.header() != null) {
            return b.header().startedMillis();
        }
        try {
            return ID_SECOND.parse(b.id().substring(0, Math.min(16, b.id().length())), Instant::from).toEpochMilli();
        } catch (DateTimeParseException e) {
            return Long.MAX_VALUE;
        }
    }

    private static Backup read(Target target, String id, long size) throws IOException {
        String name = ArchiveLayout.manifest(id);
        try {
            ManifestHeader header;
            try (InputStream in = target.open(name)) {
                if (in == null) {
                    return new Backup(id, size, null, null, "vanished while listing");
                }
                header = ManifestReader.readHeader(name, in);
            }
            if (size < ManifestReader.TRAILER_BYTES) {
                return new Backup(id, size, header, null, "too short for a trailer");
            }
            try (InputStream in = target.open(name, size - ManifestReader.TRAILER_BYTES)) {
                if (in == null) {
                    return new Backup(id, size, header, null, "vanished while listing");
                }
                return new Backup(id, size, header, ManifestReader.readTrailer(name, in), null);
            }
        } catch (IOException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith(name)) {
                throw e;
            }
            return new Backup(id, size, null, null, e.getMessage());
        }
    }

    /** The newest readable backup, or null. */
    public static Backup latest(Target target) throws IOException {
        List<Backup> all = backups(target);
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).readable()) {
                return all.get(i);
            }
        }
        return null;
    }

    /** The backup of that id, or the newest when {@code id} is null; an error when none. */
    public static Backup find(Target target, String id) throws IOException {
        if (id == null) {
            Backup b = latest(target);
            if (b == null) {
                throw new IOException(target.describe() + " holds no complete backup");
            }
            return b;
        }
        for (Backup b : backups(target)) {
            if (b.id().equals(id)) {
                if (!b.readable()) {
                    throw new IOException("backup " + id + " is damaged: " + b.problem());
                }
                return b;
            }
        }
        throw new IOException(target.describe() + " holds no backup " + id);
    }

    /** Ids of runs that have state in the target, in order. */
    public static List<String> runs(Target target) throws IOException {
        TreeSet<String> ids = new TreeSet<>();
        target.list(ArchiveLayout.RUNS, e -> {
            String rest = e.name().substring(ArchiveLayout.RUNS.length());
            int slash = rest.indexOf('/');
            if (slash > 0) {
                ids.add(rest.substring(0, slash));
            }
        });
        return new ArrayList<>(ids);
    }
}
