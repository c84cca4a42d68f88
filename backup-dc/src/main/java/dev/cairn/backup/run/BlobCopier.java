package dev.cairn.backup.run;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.target.Target;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * Makes sure a row's content is in the target: a blob already there with the row's size is
 * left alone (content addressing makes every backup after the first incremental); otherwise it
 * is copied from the source, its SHA-256 checked while it streams, and committed only when it
 * matches. A blob of the right name but the wrong size (damaged) is copied again.
 *
 * <p>Copies of different contents never wait for each other; rows that name a content being
 * copied by another thread wait for that copy and share its outcome.
 */
final class BlobCopier {
    /** Hashes known present in this run; cleared when it grows past this, since it is only a shortcut. */
    static final int KNOWN_LIMIT = 2_000_000;

    enum Outcome { PRESENT, COPIED, MISSING_IN_SOURCE }

    private final BackupSource source;
    private final Target target;
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, CompletableFuture<Outcome>> inFlight = new ConcurrentHashMap<>();

    BlobCopier(BackupSource source, Target target) {
        this.source = source;
        this.target = target;
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
            return shared == Outcome.COPIED ? Outcome.PRESENT : shared;
        }
        try {
            Outcome outcome = known.contains(sha) ? Outcome.PRESENT : copyIfAbsent(bucket, row);
            if (outcome != Outcome.MISSING_IN_SOURCE) {
                if (known.size() >= KNOWN_LIMIT) {
                    known.clear();
                }
                known.add(sha);
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

    private Outcome copyIfAbsent(String bucket, ObjectInfo row) throws IOException {
        String sha = row.sha256();
        String name = ArchiveLayout.blob(sha);
        if (target.size(name) == row.size()) {
            return Outcome.PRESENT;
        }
        try (InputStream in = source.openContent(sha)) {
            if (in == null) {
                return Outcome.MISSING_IN_SOURCE;
            }
            target.putChecked(name, new HashCheckingInputStream(in, sha, row.size(),
                    "source content " + sha + " of " + bucket + "/" + row.key()), row.size(), sha);
        }
        return Outcome.COPIED;
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
