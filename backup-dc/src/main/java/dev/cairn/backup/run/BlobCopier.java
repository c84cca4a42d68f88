package dev.cairn.backup.run;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.archive.PackWriter;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.target.Target;
import dev.cairn.store.ContentGoneException;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes sure a row's content is in the target: a blob the archive holds with the row's size
 * ({@link BlobLocations}: its packs and loose blobs) is left alone (content addressing makes every
 * backup after the first incremental); otherwise it is read from the source, its SHA-256 checked
 * while it streams (the one hash of its bytes), and written only when it matches: a small blob
 * into the open pack ({@link PackWriter}), a big one as a file of its own. A blob of the right
 * name but the wrong size (damaged) is copied again.
 *
 * <p>Copies of different contents never wait for each other; rows that name a content being
 * copied by another thread wait for that copy and share its outcome.
 */
final class BlobCopier {
    /** Hashes known present in this run; cleared when it grows past this, since it is only a shortcut. */
    static final int KNOWN_LIMIT = 2_000_000;

    /** COPIED_AHEAD: copied by {@link #copyAhead}, which already counted it in the live progress. */
    enum Outcome { PRESENT, COPIED, COPIED_AHEAD, MISSING_IN_SOURCE }

    private static final int GONE_ATTEMPTS = 4;
    private final long gonePauseMillis;
    private final BackupSource source;
    private final Target target;
    private final BlobLocations locations;
    private final PackWriter packs;
    private static final ThreadLocal<byte[][]> BUFFER = ThreadLocal.withInitial(() -> new byte[1][]);
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, CompletableFuture<Outcome>> inFlight = new ConcurrentHashMap<>();
    private final CopiedAhead copiedAhead = new CopiedAhead();
    private final AtomicLong looseBlobs = new AtomicLong();
    private final AtomicLong looseBytes = new AtomicLong();

    BlobCopier(BackupSource source, Target target, BlobLocations locations, PackWriter packs) {
        this(source, target, locations, packs, 500);
    }

    BlobCopier(BackupSource source, Target target, BlobLocations locations, PackWriter packs, long gonePauseMillis) {
        this.gonePauseMillis = gonePauseMillis;
        this.source = source;
        this.target = target;
        this.locations = locations;
        this.packs = packs;
    }

    /**
     * {@link #ensure}'s outcome when it needs no read and no wait: the row's content known
     * present, or held by the archive with the row's size (then counted as {@link #ensure} counts
     * it); null when it has to be copied or another thread is copying it. Cheap enough for the
     * scanning thread, so that rows whose content was copied ahead need no copy thread.
     */
    Outcome ifPresent(ObjectInfo row) {
        String sha = row.sha256();
        if (known.contains(sha)) {
            return Outcome.PRESENT;
        }
        if (inFlight.containsKey(sha) || locations.size(sha) != row.size()) {
            return null;
        }
        Outcome outcome = copiedAhead.claim(sha) ? Outcome.COPIED_AHEAD : Outcome.PRESENT;
        remember(sha);
        return outcome;
    }

    private void remember(String sha) {
        if (known.size() >= KNOWN_LIMIT) {
            known.clear();
        }
        known.add(sha);
    }

    Outcome ensure(String bucket, ObjectInfo row) throws IOException {
        String sha = row.sha256();
        if (known.contains(sha)) {
            return Outcome.PRESENT;
        }
        CompletableFuture<Outcome> mine = new CompletableFuture<>();
        CompletableFuture<Outcome> other = inFlight.putIfAbsent(sha, mine);
        if (other != null) {
            Outcome shared = awaitOther(other);
            // The other row's copy counts once; this row found the content present.
            return shared == Outcome.COPIED || shared == Outcome.COPIED_AHEAD ? Outcome.PRESENT : shared;
        }
        try {
            Outcome outcome = known.contains(sha) ? Outcome.PRESENT : copyUnlessGone(bucket, row);
            if (outcome != Outcome.MISSING_IN_SOURCE) {
                remember(sha);
            }
            mine.complete(outcome);
            return outcome;
        } catch (IOException | RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.remove(sha, mine);
        }
    }

    /**
     * Content can vanish mid-read on a live source: reclaimed, because its objects were replaced
     * meanwhile (left out, like an object deleted during the scan), or, read from a replica, not
     * all arrived yet (read again after a pause). Reopening tells the two apart.
     */
    private Outcome copyUnlessGone(String bucket, ObjectInfo row) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return copyIfAbsent(bucket, row);
            } catch (IOException e) {
                if (!gone(e) || attempt == GONE_ATTEMPTS) {
                    throw e;
                }
                try (InputStream again = source.openContent(row.sha256())) {
                    if (again == null) {
                        return Outcome.MISSING_IN_SOURCE;
                    }
                }
                pause(attempt);
            }
        }
    }

    private static boolean gone(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ContentGoneException) {
                return true;
            }
        }
        return false;
    }

    private void pause(int attempt) throws IOException {
        try {
            Thread.sleep(gonePauseMillis * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting to read content again");
        }
    }

    /**
     * Before the rows: copies the small content the archive lacks in the order the source stores
     * it ({@link BackupSource#scanContent}), each blob's bytes checked against its hash as they
     * pass (one whose bytes do not match is left for its row, whose copy reports it), then seals
     * the packs, so that {@link BlobLocations} knows every blob copied here and the rows find
     * them present. The first row naming each counts it as copied. Full packs are sealed on a
     * thread of their own ({@link BackupSource#prepareWorkerThread}), so that reading does not
     * wait for their syncs. Stops when the lease is lost.
     * Returns the blobs copied.
     */
    long copyAhead(Lease lease, Progress progress) throws IOException {
        ThreadLocal<MessageDigest> digests = ThreadLocal.withInitial(BlobCopier::sha256);
        long before = copiedAhead.size();
        ExecutorService sealer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(() -> {
                source.prepareWorkerThread();
                r.run();
            }, "seal-packs");
            t.setDaemon(true);
            return t;
        });
        packs.sealInBackground(sealer);
        try {
            scanContent(lease, progress, digests);
        } finally {
            packs.sealInBackground(null);
            sealer.shutdown();
        }
        packs.flush();
        return copiedAhead.size() - before;
    }

    private void scanContent(Lease lease, Progress progress, ThreadLocal<MessageDigest> digests) throws IOException {
        source.scanContent(PackWriter.LOOSE_FROM_BYTES - 1, (sha, size) -> locations.size(sha) != size,
                (sha, buffer, offset, length) -> {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new java.io.InterruptedIOException("copy of content stopped");
                    }
                    lease.check();
                    MessageDigest digest = digests.get();
                    digest.update(buffer, offset, length);
                    if (Arrays.equals(digest.digest(), Hex.decode(sha))) {
                        packs.appendToOwnPack(sha, buffer, offset, length);
                        copiedAhead.add(sha);
                        // Read now: its row, which claims it, adds nothing more (BackupRun's record).
                        progress.bytes.addAndGet(length);
                        progress.copiedBlobs.incrementAndGet();
                        progress.copiedBytes.addAndGet(length);
                    }
                });
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private Outcome copyIfAbsent(String bucket, ObjectInfo row) throws IOException {
        String sha = row.sha256();
        if (locations.size(sha) == row.size()) {
            return copiedAhead.claim(sha) ? Outcome.COPIED_AHEAD : Outcome.PRESENT;
        }
        try (InputStream in = source.openContent(sha)) {
            if (in == null) {
                return Outcome.MISSING_IN_SOURCE;
            }
            HashCheckingInputStream checked = new HashCheckingInputStream(in, sha, row.size(),
                    "source content " + sha + " of " + bucket + "/" + row.key());
            if (PackWriter.packs(row.size())) {
                byte[] bytes = buffer((int) row.size());
                int n = checked.readNBytes(bytes, 0, (int) row.size());
                if (checked.read() != -1 || n != row.size()) {
                    throw new IllegalStateException("unreachable: the checking stream throws first");
                }
                packs.append(sha, bytes, n);
            } else {
                String name = ArchiveLayout.blob(sha);
                target.putChecked(name, checked, row.size(), sha);
                locations.addLoose(sha, row.size());
                looseBlobs.incrementAndGet();
                looseBytes.addAndGet(row.size());
            }
        }
        return Outcome.COPIED;
    }

    /** The blobs this copier wrote into the archive so far, in sealed packs or alone. */
    RunState.Attempt written() {
        long[] packed = packs.sealedBlobs();
        return new RunState.Attempt(packed[0] + looseBlobs.get(), packed[1] + looseBytes.get());
    }

    /** This thread's buffer, at least {@code size} bytes (under {@link PackWriter#LOOSE_FROM_BYTES}). */
    private static byte[] buffer(int size) {
        byte[][] holder = BUFFER.get();
        if (holder[0] == null || holder[0].length < size) {
            holder[0] = new byte[Math.max(size, 256 * 1024)];
        }
        return holder[0];
    }

    private static Outcome awaitOther(CompletableFuture<Outcome> other) throws IOException {
        try {
            return other.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for a copy of the same content");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw new IOException(io.getMessage(), io);
            }
            throw new IOException(e.getCause());
        }
    }
}
