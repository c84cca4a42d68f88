package dev.cairn.backup.archive;

/**
 * What a manifest says after its rows.
 *
 * @param objects      object rows in the manifest
 * @param logicalBytes sum of the rows' sizes
 * @param copiedBlobs  blobs this backup copied into the target (the others were there already)
 * @param copiedBytes  bytes of those blobs
 */
public record ManifestTrailer(long objects, long logicalBytes, long copiedBlobs, long copiedBytes) {
}
