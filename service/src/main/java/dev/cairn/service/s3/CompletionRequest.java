package dev.cairn.service.s3;

import dev.cairn.service.auth.ChecksumAlgorithm;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.Hex;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.w3c.dom.Element;

/**
 * The body of a CompleteMultipartUpload: the parts named, each with its ETag and any checksum
 * ({@code ChecksumCRC32}, ...), and the checks S3 makes of those checksums. Immutable.
 *
 * @param parts     the parts, in the order named
 * @param checksums per part (same order), algorithm name to base64 value
 */
record CompletionRequest(List<CompletedPart> parts, List<Map<String, String>> checksums) {

    static CompletionRequest parse(byte[] body) throws S3Exception {
        Element root = Xml.parse(body);
        if (!Xml.localNameOf(root).equals("CompleteMultipartUpload")) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        List<CompletedPart> parts = new ArrayList<>();
        List<Map<String, String>> checksums = new ArrayList<>();
        for (Element p : Xml.children(root, "Part")) {
            String number = Xml.childText(p, "PartNumber");
            String etag = Xml.childText(p, "ETag");
            if (number == null || etag == null) {
                throw new S3Exception(S3Error.MALFORMED_XML);
            }
            try {
                parts.add(new CompletedPart(Integer.parseInt(number.trim()), etag));
            } catch (NumberFormatException e) {
                throw new S3Exception(S3Error.MALFORMED_XML);
            }
            Map<String, String> sums = new HashMap<>();
            for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
                String v = Xml.childText(p, "Checksum" + a.s3Name());
                if (v != null) {
                    sums.put(a.s3Name(), v.trim());
                }
            }
            checksums.add(sums);
        }
        if (parts.isEmpty()) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        return new CompletionRequest(List.copyOf(parts), List.copyOf(checksums));
    }

    /** The ETag these parts complete into (S3's multipart ETag), or null when an ETag is not an MD5. */
    String etag() {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            for (CompletedPart p : parts) {
                String tag = Conditions.unquote(p.etag().trim());
                if (!tag.matches("[0-9a-fA-F]{32}")) {
                    return null;
                }
                md5.update(Hex.decode(tag.toLowerCase(Locale.ROOT)));
            }
            return Hex.encode(md5.digest()) + "-" + parts.size();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every Java platform", e);
        }
    }

    /**
     * For an upload created without a checksum: the one this completion states (a whole-object
     * header, or part checksums), or null.
     */
    UploadChecksum impliedChecksum(S3Request r) throws S3Exception {
        ChecksumAlgorithm a = headerAlgorithm(r);
        if (a == null) {
            for (Map<String, String> sums : checksums) {
                for (String name : sums.keySet()) {
                    a = ChecksumAlgorithm.fromS3Name(name).orElseThrow();
                }
            }
        }
        if (a == null) {
            if (r.header("x-amz-checksum-type") != null) {
                throw new S3Exception(S3Error.INVALID_REQUEST,
                        "The x-amz-checksum-type header can only be used with a checksum of the object or of its parts.");
            }
            return null;
        }
        return UploadChecksum.of(a, r.header("x-amz-checksum-type"));
    }

    /** A completion must use the checksum type the upload was created with. */
    void checkType(S3Request r, UploadChecksum c) throws S3Exception {
        String type = r.header("x-amz-checksum-type");
        if (type != null && !type.trim().equalsIgnoreCase(c.type())) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The upload was created using the " + c.type()
                    + " checksum mode. The complete request must use the same checksum mode.");
        }
        ChecksumAlgorithm a = headerAlgorithm(r);
        if (a != null && a != c.algorithm()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The upload was created using a "
                    + c.algorithm().s3Name().toLowerCase(Locale.ROOT) + " checksum. The complete request must use "
                    + "the same checksum algorithm.");
        }
    }

    /**
     * Compares what the client stated with what the parts hold: every part's checksum (required
     * for a composite checksum) and the object's ({@code x-amz-checksum-*}). BadDigest on a difference.
     */
    void verify(S3Request r, UploadChecksum c, MultipartChecksums.Result computed) throws S3Exception {
        String name = c.algorithm().s3Name();
        String lower = name.toLowerCase(Locale.ROOT);
        for (int i = 0; i < parts.size(); i++) {
            String stated = checksums.get(i).get(name);
            int number = parts.get(i).partNumber();
            if (stated == null) {
                if (!c.fullObject()) {
                    throw new S3Exception(S3Error.INVALID_REQUEST, "The upload was created using a " + lower
                            + " checksum. The complete request must include the checksum for each part. It was "
                            + "missing for part " + number + " in the request.");
                }
            } else if (!stated.equals(computed.parts().get(i))) {
                throw new S3Exception(S3Error.BAD_DIGEST, "The " + lower + " you specified for part " + number
                        + " did not match what we received.");
            }
        }
        String whole = r.header(c.algorithm().headerName());
        if (whole != null) {
            String value = whole.trim();
            String object = computed.object();
            boolean same = value.equals(object)
                    || !c.fullObject() && object.startsWith(value) && object.charAt(value.length()) == '-';
            if (!same) {
                throw new S3Exception(S3Error.BAD_DIGEST, "The " + lower
                        + " you specified did not match the calculated checksum.");
            }
        }
    }

    private static ChecksumAlgorithm headerAlgorithm(S3Request r) throws S3Exception {
        ChecksumAlgorithm found = null;
        for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
            if (r.header(a.headerName()) != null) {
                if (found != null) {
                    throw new S3Exception(S3Error.INVALID_REQUEST, "Expecting a single x-amz-checksum- header");
                }
                found = a;
            }
        }
        return found;
    }
}
