package dev.cairn.backup.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.Hex;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two threads appending to packs of their own and two to the shared one at the same time: a flush seals
 * each of them, every blob appended before it is then indexed where its bytes lie, and a blob
 * appended after a flush lands in a new pack.
 */
class PackWriterTest {
    @TempDir
    Path dir;

    @Test
    void ownAndSharedPacksAreAllSealedByAFlushAndHoldEveryBlob() throws Exception {
        DirectoryTarget target = new DirectoryTarget(dir);
        BlobLocations locations = new BlobLocations();
        Map<String, byte[]> blobs = new ConcurrentHashMap<>();
        try (PackWriter packs = new PackWriter(target, locations, PackWriter.PACK_BYTES)) {
            List<Thread> threads = new ArrayList<>();
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(4);
            for (int t = 0; t < 4; t++) {
                boolean own = t < 2;
                int seed = t;
                threads.add(new Thread(() -> {
                    Random r = new Random(seed);
                    try {
                        start.await(); // the shared pack's first appends at once: it is opened once
                        for (int i = 0; i < 200; i++) {
                            byte[] b = new byte[100 + r.nextInt(5000)];
                            r.nextBytes(b);
                            String sha = Hex.encode(MessageDigest.getInstance("SHA-256").digest(b));
                            blobs.put(sha, b);
                            if (own) {
                                packs.appendToOwnPack(sha, b, 0, b.length);
                            } else {
                                packs.append(sha, b, b.length);
                            }
                        }
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(-1, locations.size(blobs.keySet().iterator().next()), "no blob is part of the archive before a flush");
            packs.flush();
            assertEquals(3, packs.sealedPacks(), "two packs of their own threads and the one two threads share");
            for (Map.Entry<String, byte[]> e : blobs.entrySet()) {
                BlobLocations.Location at = locations.find(e.getKey());
                try (InputStream in = target.open(ArchiveLayout.pack(at.packId()), at.offset())) {
                    assertArrayEquals(e.getValue(), in.readNBytes((int) at.length()), e.getKey());
                }
            }
            byte[] late = {1, 2, 3};
            String lateSha = Hex.encode(MessageDigest.getInstance("SHA-256").digest(late));
            packs.appendToOwnPack(lateSha, late, 0, late.length);
            packs.flush();
            assertEquals(4, packs.sealedPacks(), "an append after a flush opens a new pack");
            assertEquals(3, locations.size(lateSha));
        }
    }
}
