package dev.cairn.service.auth;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The service's one percent-encoding, used by SigV4's canonical request and by the S3 layer
 * (paths, queries, {@code encoding-type=url}): every byte of the UTF-8 form except the unreserved
 * characters {@code A-Z a-z 0-9 - _ . ~} (and {@code /} where kept) becomes {@code %XX}
 * (uppercase hex); decoding reads {@code %XX} in either case. Thread-safe: stateless.
 */
public final class UriEncoding {
    private static final char[] HEX_UPPER = "0123456789ABCDEF".toCharArray();

    private UriEncoding() {
    }

    public static boolean isUnreserved(int c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                || c == '-' || c == '_' || c == '.' || c == '~';
    }

    /** Encodes {@code s}; {@code keepSlash} leaves {@code /} as is (paths). */
    public static String encode(String s, boolean keepSlash) {
        if (isCanonical(s, keepSlash)) {
            return s;
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length * 3);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (isUnreserved(c) || (keepSlash && c == '/')) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX_UPPER[c >>> 4]).append(HEX_UPPER[c & 0xf]);
            }
        }
        return out.toString();
    }

    private static boolean isCanonical(String s, boolean keepSlash) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!isUnreserved(c) && !(keepSlash && c == '/')) {
                return false;
            }
        }
        return true;
    }

    /**
     * Decodes percent-escapes (and {@code +} as space when {@code plusAsSpace}); null when an escape
     * is malformed or the bytes are not UTF-8.
     */
    public static String decode(String s, boolean plusAsSpace) {
        if (s.indexOf('%') < 0 && (!plusAsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        Decoded d = percentDecode(s, plusAsSpace);
        if (d == null) {
            return null;
        }
        if (d.ascii) {
            return new String(d.bytes, 0, d.length, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(d.bytes, 0, d.length))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /**
     * As {@link #decode}, but bytes that are not UTF-8 become U+FFFD instead of failing: S3 names
     * keys by what the client sent. Null only when an escape is malformed.
     */
    public static String decodeLenient(String s, boolean plusAsSpace) {
        if (s.indexOf('%') < 0 && (!plusAsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        Decoded d = percentDecode(s, plusAsSpace);
        if (d == null) {
            return null;
        }
        return new String(d.bytes, 0, d.length, d.ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }

    /** The first {@code length} bytes of {@code bytes}; {@code ascii} when none is 0x80 or above. */
    private record Decoded(byte[] bytes, int length, boolean ascii) {
    }

    /** The bytes {@code s} stands for: escapes decoded, other characters as UTF-8; null when an escape is malformed. */
    private static Decoded percentDecode(String s, boolean plusAsSpace) {
        byte[] bytes = new byte[s.length() * 3];
        int n = 0;
        boolean ascii = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = asciiHexDigit(s.charAt(i + 1));
                int lo = asciiHexDigit(s.charAt(i + 2));
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes[n++] = (byte) ((hi << 4) | lo);
                ascii &= hi < 8;
                i += 2;
            } else if (c == '+' && plusAsSpace) {
                bytes[n++] = ' ';
            } else if (c < 0x80) {
                bytes[n++] = (byte) c;
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    utf8 = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                System.arraycopy(utf8, 0, bytes, n, utf8.length);
                n += utf8.length;
                ascii = false;
            }
        }
        return new Decoded(bytes, n, ascii);
    }

    /**
     * Whether {@code encode(decode(s))} is {@code s} itself, known without decoding: only unreserved
     * characters (and {@code /} when {@code keepSlash}) and uppercase escapes of bytes that encoding
     * escapes. Escaped bytes of 0x80 and above come back as sent whether or not they are UTF-8.
     */
    static boolean isStrictlyEncoded(String s, boolean keepSlash) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return false;
                }
                int hi = upperHexDigit(s.charAt(i + 1));
                int lo = upperHexDigit(s.charAt(i + 2));
                int b = (hi << 4) | lo;
                if (hi < 0 || lo < 0 || isUnreserved(b) || (keepSlash && b == '/')) {
                    return false;
                }
                i += 2;
            } else if (!isUnreserved(c) && !(keepSlash && c == '/')) {
                return false;
            }
        }
        return true;
    }

    private static int upperHexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /** 0-15, or -1: only ASCII hex digits, as RFC 3986 says ({@link Character#digit} also takes other scripts' digits). */
    private static int asciiHexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
