package dev.cairn.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The rules of CompleteMultipartUpload, shared by every store. Stateless; thread-safe. */
public final class MultipartAssembly {

    private MultipartAssembly() {
    }

    /** Opens stored content by digest. */
    public interface ContentOpener {
        InputStream open(String sha256, long size) throws IOException;
    }

    /** Checks the requested parts against the stored ones and returns the stored parts chosen. */
    public static List<PartInfo> select(List<CompletedPart> requested, Map<Integer, PartInfo> stored,
                                        long minPartSize) throws StoreException {
        if (requested.isEmpty()) {
            throw new StoreException(StoreException.Reason.INVALID_PART, "no parts named");
        }
        List<PartInfo> chosen = new ArrayList<>(requested.size());
        int previous = 0;
        for (CompletedPart part : requested) {
            if (part.partNumber() <= previous) {
                throw new StoreException(StoreException.Reason.INVALID_PART_ORDER,
                        "part " + part.partNumber() + " follows part " + previous);
            }
            previous = part.partNumber();
            PartInfo have = stored.get(part.partNumber());
            if (have == null || !have.etag().equals(unquote(part.etag()))) {
                throw new StoreException(StoreException.Reason.INVALID_PART,
                        "part " + part.partNumber() + " was not uploaded or its ETag differs");
            }
            chosen.add(have);
        }
        for (int i = 0; i < chosen.size() - 1; i++) {
            if (chosen.get(i).size() < minPartSize) {
                throw new StoreException(StoreException.Reason.ENTITY_TOO_SMALL,
                        "part " + chosen.get(i).partNumber() + " is smaller than " + minPartSize + " bytes");
            }
        }
        return chosen;
    }

    /** S3's multipart ETag: hex MD5 of the concatenated binary part MD5s, then {@code -N}. */
    public static String etag(List<PartInfo> parts) {
        MessageDigest md5 = Digests.of("MD5");
        for (PartInfo p : parts) {
            md5.update(Hex.decode(p.etag()));
        }
        return Hex.encode(md5.digest()) + "-" + parts.size();
    }

    /** The concatenation of the parts as one content source; reads them once to hash. */
    public static ContentSource concatenate(List<PartInfo> parts, ContentOpener opener) throws IOException {
        long size = 0;
        for (PartInfo p : parts) {
            size += p.size();
        }
        Concatenation c = new Concatenation(List.copyOf(parts), opener, size);
        MessageDigest sha = Digests.of("SHA-256");
        try (InputStream in = c.open()) {
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = in.read(buf)) > 0) {
                sha.update(buf, 0, n);
            }
        }
        c.sha256 = Hex.encode(sha.digest());
        return c;
    }

    static String unquote(String etag) {
        String e = etag.trim();
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
            return e.substring(1, e.length() - 1);
        }
        return e;
    }

    private static final class Concatenation implements ContentSource {
        private final List<PartInfo> parts;
        private final ContentOpener opener;
        private final long size;
        private String sha256;

        Concatenation(List<PartInfo> parts, ContentOpener opener, long size) {
            this.parts = parts;
            this.opener = opener;
            this.size = size;
        }

        @Override
        public String sha256() {
            return sha256;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public InputStream open() {
            Iterator<PartInfo> it = parts.iterator();
            Enumeration<InputStream> streams = new Enumeration<>() {
                @Override
                public boolean hasMoreElements() {
                    return it.hasNext();
                }

                @Override
                public InputStream nextElement() {
                    PartInfo p = it.next();
                    try {
                        return opener.open(p.sha256(), p.size());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            return new SequenceInputStream(parts.isEmpty() ? Collections.emptyEnumeration() : streams);
        }
    }
}
