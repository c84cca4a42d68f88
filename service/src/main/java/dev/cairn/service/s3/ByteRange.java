package dev.cairn.service.s3;

/**
 * One byte range of a resource of known size: {@code [first, first + length)}.
 */
record ByteRange(long first, long length) {

    /**
     * The range a {@code Range} header asks for, or null to serve everything (no header, a header
     * that does not parse, or several ranges). InvalidRange when it cannot be satisfied.
     */
    static ByteRange parse(String header, long size) throws S3Exception {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        if (!h.startsWith("bytes=") || h.indexOf(',') >= 0) {
            return null;
        }
        String spec = h.substring("bytes=".length()).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        try {
            String a = spec.substring(0, dash).trim();
            String b = spec.substring(dash + 1).trim();
            if (a.isEmpty()) {
                if (b.isEmpty()) {
                    return null;
                }
                long suffix = Long.parseLong(b);
                if (suffix <= 0 || size == 0) {
                    throw unsatisfiable();
                }
                long n = Math.min(suffix, size);
                return new ByteRange(size - n, n);
            }
            long first = Long.parseLong(a);
            long last = b.isEmpty() ? Long.MAX_VALUE : Long.parseLong(b);
            if (first < 0 || last < first) {
                return null;
            }
            if (first >= size) {
                throw unsatisfiable();
            }
            last = Math.min(last, size - 1);
            return new ByteRange(first, last - first + 1);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static S3Exception unsatisfiable() {
        return new S3Exception(S3Error.INVALID_RANGE);
    }

    String contentRange(long size) {
        return "bytes " + first + "-" + (first + length - 1) + "/" + size;
    }
}
