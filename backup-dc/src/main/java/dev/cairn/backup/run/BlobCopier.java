package dev.cairn.backup.run;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.target.Target;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes sure a row's content is in the target: a blob already there with the row's size is
 * left alone (content addressing makes every backup after the first incremental); otherwise it
 * is copied from the source, its SHA-256 checked while it streams, and committed only when it
 * matches. A blob of the right name but the wrong size (damaged) is copied again.
 */
final class BlobCopier {
    /** Hashes known present in this run; cleared when it grows past this, since it is only a shortcut. */
    static final int KNOWN_LIMIT = 2_000_000;
    private static final int STRIPES = 256;

    enum Outcome { PRESENT, COPIED, MISSING_IN_SOURCE }

    private final BackupSource source;
    private final Target target;
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    private final Object[] stripes = new Object[STRIPES];

    BlobCopier(BackupSource source, Target target) {
        this.source = source;
        this.target = target;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    Outcome ensure(String bucket, ObjectInfo row) throws IOException {
        String sha = row.sha256();
        if (known.contains(sha)) {
            return Outcome.PRESENT;
        }
        synchronized (stripes[Integer.parseInt(sha.substring(0, 2), 16)]) {
            if (known.contains(sha)) {
                return Outcome.PRESENT;
            }
            String name = ArchiveLayout.blob(sha);
            Outcome outcome;
            if (target.size(name) == row.size()) {
                outcome = Outcome.PRESENT;
            } else {
                try (InputStream in = source.openContent(sha)) {
                    if (in == null) {
                        return Outcome.MISSING_IN_SOURCE;
                    }
                    target.put(name, new HashCheckingInputStream(in, sha, row.size(),
                            "source content " + sha + " of " + bucket + "/" + row.key()), row.size());
                }
                outcome = Outcome.COPIED;
            }
            if (known.size() >= KNOWN_LIMIT) {
                known.clear();
            }
            known.add(sha);
            return outcome;
        }
    }
}
