package dev.cairn.backup.archive;

import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Where each blob of an archive lies: in a pack (its index says where) or alone under
 * {@code blobs/} (archives written before packs, and big blobs). Loaded once per run, restore or
 * verify from the pack indexes and one listing of {@code blobs/}: the set of blobs the archive
 * holds, so a run never copies one again.
 *
 * <p>A blob is found by the first 128 bits of its SHA-256, in an open-addressed table of 36
 * bytes per slot, at most three quarters full: 48 to 96 bytes per blob (13 million blobs: under
 * 1.3 GB of heap). Two contents sharing 128 bits is beyond any archive's size; every read of a
 * blob still checks its whole SHA-256.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class BlobLocations {
    /** Where one blob lies: {@code packId} null for a blob stored alone (offset 0). */
    public record Location(String packId, long offset, long length) {
        public boolean packed() {
            return packId != null;
        }

        /** The archive file holding the blob. */
        public String file(String sha256) {
            return packed() ? ArchiveLayout.pack(packId) : ArchiveLayout.blob(sha256);
        }
    }

    private static final int LOOSE = -1;
    private static final int INDEX_READERS = 8;

    private final List<String> packIds = new ArrayList<>();
    private final java.util.HashMap<String, Integer> packNumbers = new java.util.HashMap<>();
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private long[] keys = new long[2 << 12];
    private int[] packs = new int[1 << 12];
    private long[] offsets = new long[1 << 12];
    private long[] lengths = new long[1 << 12];
    private int size;

    /** An empty set (a new archive). */
    public BlobLocations() {
    }

    /**
     * Every blob of the archive. An index that cannot be read, or whose pack is missing or of
     * another size than it records, adds none of its blobs (they are absent: the next run copies
     * them again) and a line to {@link #problems()}.
     */
    public static BlobLocations load(Target target) throws IOException {
        BlobLocations out = new BlobLocations();
        PackListing listing = PackListing.of(target);
        List<String> ids = new ArrayList<>(listing.indexSizes().keySet());
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(INDEX_READERS, ids.size())), r -> {
            Thread t = new Thread(r, "read-pack-index");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<PackFormat.Index>> reads = new ArrayList<>();
            for (String id : ids) {
                reads.add(pool.submit(() -> PackListing.readIndex(target, id)));
            }
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                PackFormat.Index index;
                try {
                    index = reads.get(i).get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof IOException io && io.getMessage() != null
                            && io.getMessage().startsWith(ArchiveLayout.packIndex(id))) {
                        out.problems.add(io.getMessage());
                        continue;
                    }
                    throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while reading pack indexes");
                }
                Long packSize = listing.packSizes().get(id);
                if (packSize == null) {
                    out.problems.add(ArchiveLayout.packIndex(id) + ": its pack " + ArchiveLayout.pack(id) + " is missing");
                    continue;
                }
                if (packSize != index.packSize()) {
                    out.problems.add(ArchiveLayout.pack(id) + ": holds " + packSize + " bytes, its index says "
                            + index.packSize());
                    continue;
                }
                out.addPack(index);
            }
        } finally {
            pool.shutdownNow();
        }
        target.list(ArchiveLayout.BLOBS, e -> {
            String sha = ArchiveLayout.blobHash(e.name());
            if (sha != null) {
                out.addLoose(sha, e.size());
            }
        });
        return out;
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** Records every blob of a pack whose index is written. */
    public synchronized void addPack(PackFormat.Index index) {
        int number = packNumbers.computeIfAbsent(index.packId(), id -> {
            packIds.add(id);
            return packIds.size() - 1;
        });
        for (PackFormat.IndexEntry e : index.entries()) {
            put(e.sha256(), number, e.offset(), e.length());
        }
    }

    /** Records a blob stored alone, of {@code size} bytes. */
    public synchronized void addLoose(String sha256, long size) {
        put(sha256, LOOSE, 0, size);
    }

    /** Where the blob lies, or null when the archive does not hold it. */
    public synchronized Location find(String sha256) {
        int slot = slot(key0(sha256), key1(sha256));
        if (slot < 0) {
            return null;
        }
        int p = packs[slot];
        return new Location(p == LOOSE ? null : packIds.get(p), offsets[slot], lengths[slot]);
    }

    /** The blob's size, or -1 when the archive does not hold it. */
    public synchronized long size(String sha256) {
        int slot = slot(key0(sha256), key1(sha256));
        return slot < 0 ? -1 : lengths[slot];
    }

    public synchronized int count() {
        return size;
    }

    /** Pack ids and how many blobs each holds, for reports. */
    public synchronized Map<String, Integer> packs() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        for (int i = 0; i < packs.length; i++) {
            if (lengths[i] >= 0 && occupied(i) && packs[i] != LOOSE) {
                out.merge(packIds.get(packs[i]), 1, Integer::sum);
            }
        }
        return out;
    }

    private boolean occupied(int slot) {
        return keys[2 * slot] != 0 || keys[2 * slot + 1] != 0;
    }

    /** A later record of the same blob replaces the earlier (a copy made after damage was found). */
    private void put(String sha256, int pack, long offset, long length) {
        long k0 = key0(sha256);
        long k1 = key1(sha256);
        if (k0 == 0 && k1 == 0) {
            k1 = 1; // the empty-slot marker; a real hash with 128 zero bits shares its slot with ...0001
        }
        if ((size + 1) * 4L >= packs.length * 3L) {
            grow();
        }
        int mask = packs.length - 1;
        for (int i = mix(k0, k1) & mask; ; i = (i + 1) & mask) {
            if (!occupied(i)) {
                keys[2 * i] = k0;
                keys[2 * i + 1] = k1;
                size++;
            } else if (keys[2 * i] != k0 || keys[2 * i + 1] != k1) {
                continue;
            }
            packs[i] = pack;
            offsets[i] = offset;
            lengths[i] = length;
            return;
        }
    }

    private int slot(long k0, long k1) {
        if (k0 == 0 && k1 == 0) {
            k1 = 1;
        }
        int mask = packs.length - 1;
        for (int i = mix(k0, k1) & mask; ; i = (i + 1) & mask) {
            if (!occupied(i)) {
                return -1;
            }
            if (keys[2 * i] == k0 && keys[2 * i + 1] == k1) {
                return i;
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldPacks = packs;
        long[] oldOffsets = offsets;
        long[] oldLengths = lengths;
        int n = oldPacks.length * 2;
        keys = new long[2 * n];
        packs = new int[n];
        offsets = new long[n];
        lengths = new long[n];
        int mask = n - 1;
        for (int j = 0; j < oldPacks.length; j++) {
            long k0 = oldKeys[2 * j];
            long k1 = oldKeys[2 * j + 1];
            if (k0 == 0 && k1 == 0) {
                continue;
            }
            int i = mix(k0, k1) & mask;
            while (occupied(i)) {
                i = (i + 1) & mask;
            }
            keys[2 * i] = k0;
            keys[2 * i + 1] = k1;
            packs[i] = oldPacks[j];
            offsets[i] = oldOffsets[j];
            lengths[i] = oldLengths[j];
        }
    }

    private static long key0(String sha256) {
        return Long.parseUnsignedLong(sha256, 0, 16, 16);
    }

    private static long key1(String sha256) {
        return Long.parseUnsignedLong(sha256, 16, 32, 16);
    }

    private static int mix(long k0, long k1) {
        long h = (k0 ^ Long.rotateLeft(k1, 29)) * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
