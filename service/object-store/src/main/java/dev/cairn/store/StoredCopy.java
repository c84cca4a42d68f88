package dev.cairn.store;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a copy of a stored object writes (CopyObject, the console's "make current"): the source's
 * content by its digest, so no byte moves, and the checksums that still describe the copy, which
 * is one part.
 */
public final class StoredCopy {
    private StoredCopy() {
    }

    /** The content a row names, read from the store only if the store must read it at all. */
    public static ContentSource content(ObjectStore store, ObjectInfo src) {
        return new ContentSource() {
            @Override
            public String sha256() {
                return src.sha256();
            }

            @Override
            public long size() {
                return src.size();
            }

            @Override
            public String md5() {
                return src.partCount() == 0 ? src.etag() : null;
            }

            @Override
            public InputStream open() throws IOException {
                ContentRead read = store.getContent(src.sha256());
                if (read == null) {
                    throw new StoreException(StoreException.Reason.CONTENT_GONE, src.sha256());
                }
                return read.openAll();
            }
        };
    }

    /** The source's checksums without the composite ones: a checksum of part checksums does not describe a copy. */
    public static Map<String, String> fullObjectChecksums(ObjectInfo src) {
        Map<String, String> kept = new TreeMap<>(src.checksums());
        kept.values().removeIf(StoredCopy::isComposite);
        return kept;
    }

    /** Whether a stored checksum value is composite: a checksum of the parts' checksums, ending in {@code -N}. */
    public static boolean isComposite(String checksum) {
        int dash = checksum.lastIndexOf('-');
        return dash > 0 && dash < checksum.length() - 1 && checksum.substring(dash + 1).chars().allMatch(Character::isDigit);
    }
}
