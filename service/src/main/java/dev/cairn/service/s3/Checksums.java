package dev.cairn.service.s3;

import dev.cairn.service.auth.ChecksumAlgorithm;
import dev.cairn.service.auth.StreamingChecksum;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The checksums a write asks for ({@code x-amz-checksum-*} headers, or trailers announced by
 * {@code x-amz-trailer} / {@code x-amz-sdk-checksum-algorithm}), computed while the body streams
 * and compared once it has ended. Not thread-safe: one per request.
 */
final class Checksums {
    private final Map<ChecksumAlgorithm, String> expectedInHeaders = new LinkedHashMap<>();
    private final List<ChecksumAlgorithm> fromTrailers = new ArrayList<>();
    private final String contentMd5;

    private Checksums(String contentMd5) {
        this.contentMd5 = contentMd5;
    }

    /** The checksums requested by the request's headers; InvalidDigest/InvalidRequest on bad values. */
    static Checksums of(S3Request r) throws S3Exception {
        return of(r, true);
    }

    /** As {@link #of(S3Request)}, leaving out {@code x-amz-checksum-*} headers (not the body's). */
    static Checksums ofBodyOnly(S3Request r) throws S3Exception {
        return of(r, false);
    }

    private static Checksums of(S3Request r, boolean headers) throws S3Exception {
        String md5 = r.header("Content-MD5");
        if (md5 != null) {
            byte[] decoded;
            try {
                decoded = Base64.getDecoder().decode(md5.trim());
            } catch (IllegalArgumentException e) {
                throw new S3Exception(S3Error.INVALID_DIGEST);
            }
            if (decoded.length != 16) {
                throw new S3Exception(S3Error.INVALID_DIGEST);
            }
        }
        Checksums c = new Checksums(md5 == null ? null : md5.trim());
        for (ChecksumAlgorithm a : headers ? ChecksumAlgorithm.values() : new ChecksumAlgorithm[0]) {
            String v = r.header(a.headerName());
            if (v != null) {
                if (!a.isWellFormed(v)) {
                    throw new S3Exception(S3Error.INVALID_DIGEST, "the " + a.s3Name() + " value is not valid");
                }
                c.expectedInHeaders.put(a, v.trim());
            }
        }
        String trailer = r.header("x-amz-trailer");
        if (trailer != null) {
            for (String name : trailer.split(",")) {
                Optional<ChecksumAlgorithm> a = ChecksumAlgorithm.fromHeaderName(name.trim());
                if (a.isPresent() && !c.expectedInHeaders.containsKey(a.get())) {
                    c.fromTrailers.add(a.get());
                } else if (a.isEmpty() && name.trim().toLowerCase(Locale.ROOT).startsWith("x-amz-checksum-")) {
                    throw new S3Exception(S3Error.INVALID_REQUEST, "unsupported trailer " + name.trim());
                }
            }
        }
        if (c.expectedInHeaders.size() + c.fromTrailers.size() > 1) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Expecting a single x-amz-checksum- header");
        }
        return c;
    }

    /** The algorithm of the one checksum the request sends (header or trailer), or null. */
    ChecksumAlgorithm algorithm() {
        if (!expectedInHeaders.isEmpty()) {
            return expectedInHeaders.keySet().iterator().next();
        }
        return fromTrailers.isEmpty() ? null : fromTrailers.get(0);
    }

    /** Sinks to feed while reading the body. */
    List<ChecksumSink> sinks() {
        List<ChecksumSink> out = new ArrayList<>();
        for (ChecksumAlgorithm a : expectedInHeaders.keySet()) {
            out.add(sink(a));
        }
        for (ChecksumAlgorithm a : fromTrailers) {
            out.add(sink(a));
        }
        return out;
    }

    /**
     * Compares what was computed with what the client sent (headers, then trailers read after
     * the body) and returns the verified checksums to store, by algorithm name.
     */
    Map<String, String> verify(SpooledBody body, Map<String, String> trailers) throws S3Exception {
        if (contentMd5 != null && !contentMd5.equals(body.md5Base64())) {
            throw new S3Exception(S3Error.BAD_DIGEST);
        }
        Map<String, String> verified = new LinkedHashMap<>();
        for (Map.Entry<ChecksumAlgorithm, String> e : expectedInHeaders.entrySet()) {
            String got = body.checksums().get(e.getKey().s3Name());
            if (!e.getValue().equals(got)) {
                throw new S3Exception(S3Error.BAD_DIGEST, "The " + e.getKey().s3Name()
                        + " you specified did not match the calculated checksum.");
            }
            verified.put(e.getKey().s3Name(), got);
        }
        for (ChecksumAlgorithm a : fromTrailers) {
            String sent = trailers.get(a.headerName());
            String got = body.checksums().get(a.s3Name());
            if (sent == null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "the trailer " + a.headerName() + " was announced but not sent");
            }
            if (!sent.trim().equals(got)) {
                throw new S3Exception(S3Error.BAD_DIGEST, "The " + a.s3Name()
                        + " you specified did not match the calculated checksum.");
            }
            verified.put(a.s3Name(), got);
        }
        return verified;
    }

    static void echo(S3Request r, Map<String, String> checksums) {
        for (Map.Entry<String, String> c : checksums.entrySet()) {
            r.setHeader("x-amz-checksum-" + c.getKey().toLowerCase(Locale.ROOT), c.getValue());
        }
    }

    private static ChecksumSink sink(ChecksumAlgorithm a) {
        StreamingChecksum digest = a.newDigest();
        return new ChecksumSink() {
            @Override
            public String algorithm() {
                return a.s3Name();
            }

            @Override
            public void update(byte[] data, int offset, int length) {
                digest.update(data, offset, length);
            }

            @Override
            public String base64() {
                return digest.base64();
            }
        };
    }
}
