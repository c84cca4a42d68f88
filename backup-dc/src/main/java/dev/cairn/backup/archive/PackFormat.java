package dev.cairn.backup.archive;

import dev.cairn.store.Hex;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The byte layouts of a pack ({@code packs/<id>.pack}: small blobs back to back) and of its
 * index ({@code packs/<id>.idx}: each blob's SHA-256, offset and length, sorted, checksummed);
 * docs/format/backup-archive.md. A pack is part of the archive exactly when its index exists;
 * the index is written after the pack is durable.
 */
public final class PackFormat {
    public static final byte[] PACK_MAGIC = "CAIRNPAK".getBytes(StandardCharsets.US_ASCII);
    public static final byte[] INDEX_MAGIC = "CAIRNIDX".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;
    public static final int TAG_BLOB = 'b';
    public static final int TAG_END = 'E';
    public static final int ID_BYTES = 16;
    /** Magic, version, pack id. */
    public static final int HEADER_BYTES = 8 + 2 + ID_BYTES;
    /** Tag, SHA-256, length: the bytes before each blob's content. */
    public static final int ENTRY_HEADER_BYTES = 1 + 32 + 8;
    /** Index bytes besides its entries: magic, version, id, pack size, count, checksum. */
    static final int INDEX_FIXED_BYTES = 8 + 2 + ID_BYTES + 8 + 4 + 32;
    static final int INDEX_ENTRY_BYTES = 32 + 8 + 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PackFormat() {
    }

    /** 32 lower-case hex digits: 16 random bytes. */
    public static String newPackId() {
        byte[] id = new byte[ID_BYTES];
        RANDOM.nextBytes(id);
        return Hex.encode(id);
    }

    public static boolean isPackId(String s) {
        if (s.length() != 2 * ID_BYTES) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    public static byte[] header(String packId) {
        byte[] b = new byte[HEADER_BYTES];
        System.arraycopy(PACK_MAGIC, 0, b, 0, 8);
        b[8] = (byte) (VERSION >>> 8);
        b[9] = (byte) VERSION;
        System.arraycopy(Hex.decode(packId), 0, b, 10, ID_BYTES);
        return b;
    }

    /** Fills {@code into[0..ENTRY_HEADER_BYTES)} with a blob's tag, SHA-256 and length. */
    public static void entryHeader(byte[] into, String sha256, long length) {
        into[0] = (byte) TAG_BLOB;
        System.arraycopy(Hex.decode(sha256), 0, into, 1, 32);
        for (int i = 0; i < 8; i++) {
            into[33 + i] = (byte) (length >>> (56 - 8 * i));
        }
    }

    public static byte[] end(long count) {
        byte[] b = new byte[9];
        b[0] = (byte) TAG_END;
        for (int i = 0; i < 8; i++) {
            b[1 + i] = (byte) (count >>> (56 - 8 * i));
        }
        return b;
    }

    /** One blob of a pack: its content starts at {@code offset} in the pack file. */
    public record IndexEntry(String sha256, long offset, long length) {
    }

    /** A pack's index: its entries sorted by SHA-256 (unsigned bytes, as lower-case hex sorts). */
    public record Index(String packId, long packSize, List<IndexEntry> entries) {
    }

    public static byte[] encodeIndex(Index index) throws IOException {
        List<IndexEntry> sorted = new ArrayList<>(index.entries());
        sorted.sort((a, b) -> a.sha256().compareTo(b.sha256()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(INDEX_FIXED_BYTES + sorted.size() * INDEX_ENTRY_BYTES);
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(INDEX_MAGIC);
        out.writeShort(VERSION);
        out.write(Hex.decode(index.packId()));
        out.writeLong(index.packSize());
        out.writeInt(sorted.size());
        for (IndexEntry e : sorted) {
            out.write(Hex.decode(e.sha256()));
            out.writeLong(e.offset());
            out.writeLong(e.length());
        }
        out.flush();
        out.write(ManifestWriter.sha256().digest(bytes.toByteArray()));
        return bytes.toByteArray();
    }

    /** Decodes and checks an index (magic, version, checksum, order, offsets inside the pack). */
    public static Index decodeIndex(String name, byte[] bytes) throws IOException {
        if (bytes.length < INDEX_FIXED_BYTES) {
            throw new IOException(name + ": corrupt pack index: " + bytes.length + " bytes");
        }
        byte[] stored = Arrays.copyOfRange(bytes, bytes.length - 32, bytes.length);
        var md = ManifestWriter.sha256();
        md.update(bytes, 0, bytes.length - 32);
        if (!Arrays.equals(stored, md.digest())) {
            throw new IOException(name + ": corrupt pack index: checksum mismatch");
        }
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes, 0, bytes.length - 32))) {
            byte[] magic = in.readNBytes(8);
            if (!Arrays.equals(magic, INDEX_MAGIC)) {
                throw new IOException(name + ": not a pack index (bad magic)");
            }
            int version = in.readUnsignedShort();
            if (version != VERSION) {
                throw new IOException(name + ": pack index version " + version + " is not supported (this build reads "
                        + VERSION + ")");
            }
            String id = Hex.encode(in.readNBytes(ID_BYTES));
            long packSize = in.readLong();
            int n = in.readInt();
            if (n < 0 || (long) n * INDEX_ENTRY_BYTES != bytes.length - INDEX_FIXED_BYTES) {
                throw new IOException(name + ": corrupt pack index: " + n + " entries in " + bytes.length + " bytes");
            }
            List<IndexEntry> entries = new ArrayList<>(n);
            String last = null;
            byte[] sha = new byte[32];
            for (int i = 0; i < n; i++) {
                in.readFully(sha);
                String hex = Hex.encode(sha);
                long offset = in.readLong();
                long length = in.readLong();
                if (last != null && last.compareTo(hex) >= 0) {
                    throw new IOException(name + ": corrupt pack index: entries out of order at " + hex);
                }
                if (offset < HEADER_BYTES + ENTRY_HEADER_BYTES || length < 0 || offset + length > packSize) {
                    throw new IOException(name + ": corrupt pack index: " + hex + " at " + offset + "+" + length
                            + " lies outside the pack's " + packSize + " bytes");
                }
                entries.add(new IndexEntry(hex, offset, length));
                last = hex;
            }
            return new Index(id, packSize, entries);
        } catch (EOFException e) {
            throw new IOException(name + ": corrupt pack index: truncated");
        }
    }
}
