package dev.cairn.service.s3;

import dev.cairn.service.auth.ChecksumAlgorithm;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.StoredCopy;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checksum a multipart upload was created with ({@code x-amz-checksum-algorithm},
 * {@code x-amz-checksum-type}): COMPOSITE, a checksum of the part checksums followed by
 * {@code -N}, or FULL_OBJECT, the CRC of the whole object. The upload keeps it in its attributes
 * under a name no header can carry (a colon ends a header name), removed again when the upload
 * completes. Immutable.
 */
record UploadChecksum(ChecksumAlgorithm algorithm, boolean fullObject) {
    static final String ATTRIBUTE = "cairn:checksum";
    static final String COMPOSITE = "COMPOSITE";
    static final String FULL_OBJECT = "FULL_OBJECT";

    String type() {
        return fullObject ? FULL_OBJECT : COMPOSITE;
    }

    /** What CreateMultipartUpload asks for, or null; InvalidRequest for a combination S3 refuses. */
    static UploadChecksum ofCreate(S3Request r) throws S3Exception {
        String name = r.header("x-amz-checksum-algorithm");
        String type = r.header("x-amz-checksum-type");
        if (name == null) {
            if (type != null) {
                throw new S3Exception(S3Error.INVALID_REQUEST,
                        "The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.");
            }
            return null;
        }
        ChecksumAlgorithm a = ChecksumAlgorithm.fromS3Name(name)
                .orElseThrow(() -> new S3Exception(S3Error.INVALID_REQUEST, "Checksum algorithm provided is unsupported."));
        return of(a, type);
    }

    /** The algorithm with the type named (absent: S3's default for the algorithm); InvalidRequest. */
    static UploadChecksum of(ChecksumAlgorithm a, String type) throws S3Exception {
        boolean crc32 = a == ChecksumAlgorithm.CRC32 || a == ChecksumAlgorithm.CRC32C;
        boolean full;
        if (type == null) {
            full = a == ChecksumAlgorithm.CRC64NVME;
        } else if (type.trim().equalsIgnoreCase(FULL_OBJECT)) {
            full = true;
        } else if (type.trim().equalsIgnoreCase(COMPOSITE)) {
            full = false;
        } else {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Value for x-amz-checksum-type header is invalid.");
        }
        if (full && !crc32 && a != ChecksumAlgorithm.CRC64NVME || !full && a == ChecksumAlgorithm.CRC64NVME) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The " + (full ? FULL_OBJECT : COMPOSITE)
                    + " checksum type cannot be used with the " + a.s3Name().toLowerCase(Locale.ROOT)
                    + " checksum algorithm.");
        }
        return new UploadChecksum(a, full);
    }

    /** The checksum an upload was created with, or null. */
    static UploadChecksum ofUpload(ObjectAttributes uploadAttributes) {
        String v = uploadAttributes.userMetadata().get(ATTRIBUTE);
        if (v == null) {
            return null;
        }
        int space = v.indexOf(' ');
        return new UploadChecksum(ChecksumAlgorithm.fromS3Name(v.substring(0, space)).orElseThrow(),
                v.substring(space + 1).equals(FULL_OBJECT));
    }

    ObjectAttributes stamp(ObjectAttributes a) {
        Map<String, String> meta = new TreeMap<>(a.userMetadata());
        meta.put(ATTRIBUTE, algorithm.s3Name() + " " + type());
        return with(a, meta);
    }

    /** The upload's attributes as the completed object keeps them. */
    static ObjectAttributes strip(ObjectAttributes a) {
        if (!a.userMetadata().containsKey(ATTRIBUTE)) {
            return a;
        }
        Map<String, String> meta = new TreeMap<>(a.userMetadata());
        meta.remove(ATTRIBUTE);
        return with(a, meta);
    }

    private static ObjectAttributes with(ObjectAttributes a, Map<String, String> meta) {
        return a.withUserMetadata(meta);
    }

    /** The type of a stored checksum value: a composite one ends in {@code -N}. */
    static String typeOf(String value) {
        return StoredCopy.isComposite(value) ? COMPOSITE : FULL_OBJECT;
    }
}
