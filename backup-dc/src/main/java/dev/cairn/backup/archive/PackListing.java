package dev.cairn.backup.archive;

import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The packs and pack indexes a target holds, from one listing of {@code packs/}: the pack ids
 * with an index are the archive's packs; a pack without an index is the leftover of a run that
 * died between writing the two (never part of the archive); an index without its pack is damage.
 *
 * @param packSizes  pack id → size of its {@code .pack} file
 * @param indexSizes pack id → size of its {@code .idx} file
 */
public record PackListing(Map<String, Long> packSizes, Map<String, Long> indexSizes) {

    public static PackListing of(Target target) throws IOException {
        Map<String, Long> packs = new TreeMap<>();
        Map<String, Long> indexes = new TreeMap<>();
        target.list(ArchiveLayout.PACKS, e -> {
            String id = ArchiveLayout.packId(e.name());
            if (id != null) {
                (e.name().endsWith(ArchiveLayout.PACK_SUFFIX) ? packs : indexes).put(id, e.size());
            }
        });
        return new PackListing(packs, indexes);
    }

    /** Reads and checks a pack's index; an error names it. */
    public static PackFormat.Index readIndex(Target target, String packId) throws IOException {
        String name = ArchiveLayout.packIndex(packId);
        byte[] bytes = target.read(name);
        if (bytes == null) {
            throw new IOException(name + ": vanished while reading the archive");
        }
        PackFormat.Index index = PackFormat.decodeIndex(name, bytes);
        if (!index.packId().equals(packId)) {
            throw new IOException(name + ": corrupt pack index: it names pack " + index.packId());
        }
        return index;
    }
}
