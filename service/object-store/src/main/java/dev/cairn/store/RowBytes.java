package dev.cairn.store;

import dev.cairn.engine.CorruptionException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The primitives of the varint row layouts (docs/format/object-record.md): unsigned LEB128
 * varints; strings as a varint byte length then UTF-8; an optional string as a presence byte
 * (0 or 1) then the string; a map as a varint count then name and value strings; an object's
 * attributes as its six optional headers then its user metadata map. The one varint writer of
 * the store and the service. A {@link Writer} or {@link Reader} is not thread-safe; each is used
 * by one thread for one row.
 */
public final class RowBytes {

    private RowBytes() {
    }

    /** Appends values to a growing row. */
    public static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(128);

        public Writer u8(int v) {
            out.write(v);
            return this;
        }

        public Writer raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        public Writer varint(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
            return this;
        }

        public Writer string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(b.length);
            return raw(b);
        }

        public Writer optional(String s) {
            if (s == null) {
                return u8(0);
            }
            u8(1);
            return string(s);
        }

        public Writer map(Map<String, String> m) {
            varint(m.size());
            for (Map.Entry<String, String> e : m.entrySet()) {
                string(e.getKey());
                string(e.getValue());
            }
            return this;
        }

        public Writer attributes(ObjectAttributes a) {
            optional(a.contentType());
            optional(a.cacheControl());
            optional(a.contentDisposition());
            optional(a.contentEncoding());
            optional(a.contentLanguage());
            optional(a.expires());
            return map(a.userMetadata());
        }

        public byte[] bytes() {
            return out.toByteArray();
        }
    }

    /** Reads a row front to back; every error names the row ({@code where}) and the offset. */
    public static final class Reader {
        private final byte[] b;
        private final String where;
        private int pos;

        public Reader(byte[] b, String where) {
            this.b = b;
            this.where = where;
        }

        /** Reads the format version byte and refuses any but {@code expected}. */
        public void version(int expected) throws CorruptionException {
            int v = u8();
            if (v != expected) {
                throw corrupt("unknown format version " + v);
            }
        }

        public int u8() throws CorruptionException {
            if (pos >= b.length) {
                throw corrupt("truncated");
            }
            return b[pos++] & 0xFF;
        }

        public byte[] raw(int n) throws CorruptionException {
            if (n < 0 || b.length - pos < n) {
                throw corrupt("truncated");
            }
            byte[] r = Arrays.copyOfRange(b, pos, pos + n);
            pos += n;
            return r;
        }

        public long varint() throws CorruptionException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = u8();
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw corrupt("varint too long");
        }

        public String string() throws CorruptionException {
            long n = varint();
            if (n > Integer.MAX_VALUE) {
                throw corrupt("string too long");
            }
            return new String(raw((int) n), StandardCharsets.UTF_8);
        }

        public String optional() throws CorruptionException {
            int present = u8();
            if (present > 1) {
                throw corrupt("bad presence byte " + present);
            }
            return present == 1 ? string() : null;
        }

        public Map<String, String> map() throws CorruptionException {
            long n = varint();
            if (n > b.length) {
                throw corrupt("bad map size " + n);
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (long i = 0; i < n; i++) {
                m.put(string(), string());
            }
            return m;
        }

        public ObjectAttributes attributes() throws CorruptionException {
            return new ObjectAttributes(optional(), optional(), optional(), optional(), optional(), optional(), map());
        }

        /** Bytes left to read. */
        public int remaining() {
            return b.length - pos;
        }

        /** Refuses trailing bytes. */
        public void end() throws CorruptionException {
            if (pos != b.length) {
                throw corrupt((b.length - pos) + " trailing bytes");
            }
        }

        private CorruptionException corrupt(String what) {
            return new CorruptionException("row " + where + " at offset " + pos + ": " + what);
        }
    }
}
