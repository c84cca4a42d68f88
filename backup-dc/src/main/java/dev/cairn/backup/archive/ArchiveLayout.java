package dev.cairn.backup.archive;

/**
 * Names of the files of an archive inside a target, relative to the target's root. Every name
 * uses '/' and is safe as an S3 key and as a relative path.
 */
public final class ArchiveLayout {
    public static final String BLOBS = "blobs/";
    public static final String PACKS = "packs/";
    public static final String PACK_SUFFIX = ".pack";
    public static final String PACK_INDEX_SUFFIX = ".idx";
    public static final String MANIFESTS = "manifests/";
    public static final String MANIFEST_SUFFIX = ".manifest";
    public static final String RUNS = "runs/";
    public static final String REPORTS = "reports/";
    public static final String RESTORES = "restores/";
    public static final String LOCKS = "locks/";
    /** The one lock every writer of the archive (backup run, prune) holds. */
    public static final String WRITER_LOCK = LOCKS + "writer.lease";

    private ArchiveLayout() {
    }

    /**
     * {@code blobs/ab/abcd…}: one level of 256 directories. A second level would create a
     * directory for nearly every blob of a small archive (65,536 of them), which cost a backup
     * more than the blob files themselves; one level keeps 13 million blobs at ~50,000 per
     * directory, which hashed directory indexes (ext4, XFS) handle without a slowdown.
     */
    public static String blob(String sha256) {
        return BLOBS + sha256.substring(0, 2) + "/" + sha256;
    }

    /** The hash a blob name ends with, or null when the name is not a blob's. */
    public static String blobHash(String name) {
        if (!name.startsWith(BLOBS)) {
            return null;
        }
        String last = name.substring(name.lastIndexOf('/') + 1);
        return dev.cairn.store.Hex.isSha256(last) && name.equals(blob(last)) ? last : null;
    }

    /** {@code packs/<id>.pack}: small blobs, back to back. */
    public static String pack(String packId) {
        return PACKS + packId + PACK_SUFFIX;
    }

    /** {@code packs/<id>.idx}: where each blob of the pack lies; the pack is part of the archive once it exists. */
    public static String packIndex(String packId) {
        return PACKS + packId + PACK_INDEX_SUFFIX;
    }

    /** The pack id of a pack's or a pack index's name, or null for any other name. */
    public static String packId(String name) {
        if (!name.startsWith(PACKS)) {
            return null;
        }
        String rest = name.substring(PACKS.length());
        String id = rest.endsWith(PACK_SUFFIX) ? rest.substring(0, rest.length() - PACK_SUFFIX.length())
                : rest.endsWith(PACK_INDEX_SUFFIX) ? rest.substring(0, rest.length() - PACK_INDEX_SUFFIX.length()) : null;
        return id != null && PackFormat.isPackId(id) ? id : null;
    }

    public static String manifest(String backupId) {
        return MANIFESTS + backupId + MANIFEST_SUFFIX;
    }

    /** The backup id of a manifest's name, or null when the name is not a manifest's. */
    public static String manifestId(String name) {
        if (!name.startsWith(MANIFESTS) || !name.endsWith(MANIFEST_SUFFIX)) {
            return null;
        }
        String id = name.substring(MANIFESTS.length(), name.length() - MANIFEST_SUFFIX.length());
        return id.isEmpty() || id.contains("/") ? null : id;
    }

    public static String report(String backupId) {
        return REPORTS + backupId + ".json";
    }

    public static String run(String backupId) {
        return RUNS + backupId + "/";
    }

    public static String runState(String backupId) {
        return run(backupId) + "run.json";
    }

    public static String progress(String backupId, String splitId) {
        return run(backupId) + "progress/" + splitId + ".json";
    }

    /** What one attempt at a run (a start or a resume) wrote: {@code RunState.Attempt}. */
    public static String attempt(String backupId, String attemptId) {
        return attempts(backupId) + attemptId + ".json";
    }

    public static String attempts(String backupId) {
        return run(backupId) + "attempts/";
    }

    public static String rowChunk(String backupId, String splitId, int seq) {
        return run(backupId) + "rows/" + splitId + "/" + String.format("%08d", seq) + ".rows";
    }
}
