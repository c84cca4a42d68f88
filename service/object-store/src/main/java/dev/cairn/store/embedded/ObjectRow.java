package dev.cairn.store.embedded;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Row;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.VersionId;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * An object's metadata as an engine row (docs/object-stores.md, "Object rows"): one column per thing
 * known, named as the header S3 returns it under, typed so that the schema catalogue stores no
 * length it can infer. Binary where the text is a fixed encoding of bytes (the SHA-256, the MD5
 * ETag, base64 checksums), so the row holds 32 + 16 bytes where the text would take 96. Every
 * column but the content hash, length, ETag and modification time is optional. The object
 * record's other stored forms are in docs/format/object-record.md. Stateless; thread-safe.
 */
final class ObjectRow {
    static final String CONTENT_SHA256 = "content-sha256";
    static final String CONTENT_LENGTH = "content-length";
    static final String ETAG = "etag";
    static final String LAST_MODIFIED = "last-modified";
    static final String PART_COUNT = "part-count";
    static final String CONTENT_TYPE = "content-type";
    static final String CACHE_CONTROL = "cache-control";
    static final String CONTENT_DISPOSITION = "content-disposition";
    static final String CONTENT_ENCODING = "content-encoding";
    static final String CONTENT_LANGUAGE = "content-language";
    static final String EXPIRES = "expires";
    static final String USER_METADATA_PREFIX = "x-amz-meta-";
    static final String CHECKSUM_PREFIX = "x-amz-checksum-";
    /** Present only when the object is not private; its value is the {@link BucketAcl} code. */
    static final String ACL = "x-amz-acl";
    /** Present on rows written in a bucket whose versioning is configured: the 12-byte sort id (docs/format/versions.md). */
    static final String VERSION_ID = "version-id";
    /** Present (value 1) when the row's version id is {@code null}. */
    static final String VERSION_NULL = "version-null";

    private static final Pattern MD5_HEX = Pattern.compile("[0-9a-f]{32}");
    private static final HexFormat HEX = HexFormat.of();

    private ObjectRow() {
    }

    static Row toRow(ObjectInfo o) {
        return toRow(o, null);
    }

    /** {@code sort}: the version's sort id when the bucket's versioning is configured, else null. */
    static Row toRow(ObjectInfo o, byte[] sort) {
        Row.Builder row = Row.builder()
                .fixed(CONTENT_SHA256, Hex.decode(o.sha256()))
                .uint(CONTENT_LENGTH, o.size())
                .put(ETAG, etag(o.etag(), o.partCount()))
                .uint(LAST_MODIFIED, o.lastModified());
        if (o.partCount() > 0) {
            row.uint(PART_COUNT, o.partCount());
        }
        ObjectAttributes a = o.attributes();
        optional(row, CONTENT_TYPE, a.contentType());
        optional(row, CACHE_CONTROL, a.cacheControl());
        optional(row, CONTENT_DISPOSITION, a.contentDisposition());
        optional(row, CONTENT_ENCODING, a.contentEncoding());
        optional(row, CONTENT_LANGUAGE, a.contentLanguage());
        optional(row, EXPIRES, a.expires());
        for (Map.Entry<String, String> e : a.userMetadata().entrySet()) {
            row.text(USER_METADATA_PREFIX + e.getKey(), e.getValue());
        }
        for (Map.Entry<String, String> e : o.checksums().entrySet()) {
            row.put(CHECKSUM_PREFIX + e.getKey().toLowerCase(Locale.ROOT), base64(e.getValue()));
        }
        if (o.acl() != BucketAcl.PRIVATE) {
            row.uint(ACL, o.acl().code());
        }
        if (sort != null) {
            row.fixed(VERSION_ID, sort);
            if (VersionId.NULL.equals(o.versionId())) {
                row.uint(VERSION_NULL, 1);
            }
        }
        return row.build();
    }

    static ObjectInfo fromRow(String key, Row row) throws CorruptionException {
        try {
            return decode(key, row);
        } catch (IllegalStateException wrongType) {
            throw new CorruptionException("objects/" + key + ": " + wrongType.getMessage());
        }
    }

    private static ObjectInfo decode(String key, Row row) throws CorruptionException {
        String where = "objects/" + key;
        String sha = Hex.encode(required(row, CONTENT_SHA256, ColumnValue.Type.FIXED, where).bytes());
        long size = required(row, CONTENT_LENGTH, ColumnValue.Type.UINT, where).asLong();
        long modified = required(row, LAST_MODIFIED, ColumnValue.Type.UINT, where).asLong();
        ColumnValue parts = row.get(PART_COUNT);
        int partCount = parts == null ? 0 : (int) parts.asLong();
        ColumnValue etag = row.get(ETAG);
        if (etag == null || etag.type() == ColumnValue.Type.UINT) {
            throw new CorruptionException(where + ": no ETag");
        }
        String etagText = etag.type() == ColumnValue.Type.FIXED
                ? HEX.formatHex(etag.bytes()) + (partCount > 0 ? "-" + partCount : "")
                : etag.asText();
        Map<String, String> user = new TreeMap<>();
        Map<String, String> checksums = new TreeMap<>();
        for (Map.Entry<String, ColumnValue> e : row.asMap().entrySet()) {
            String column = e.getKey();
            if (column.startsWith(USER_METADATA_PREFIX)) {
                user.put(column.substring(USER_METADATA_PREFIX.length()), e.getValue().asText());
            } else if (column.startsWith(CHECKSUM_PREFIX)) {
                ColumnValue v = e.getValue();
                checksums.put(column.substring(CHECKSUM_PREFIX.length()).toUpperCase(Locale.ROOT),
                        v.type() == ColumnValue.Type.FIXED ? Base64.getEncoder().encodeToString(v.bytes()) : v.asText());
            } else if (!isStandard(column)) {
                throw new CorruptionException(where + ": unknown column '" + column + "'");
            }
        }
        ColumnValue aclCode = row.get(ACL);
        BucketAcl acl = BucketAcl.PRIVATE;
        if (aclCode != null) {
            if (aclCode.type() != ColumnValue.Type.UINT || aclCode.asLong() != BucketAcl.PUBLIC_READ.code()) {
                throw new CorruptionException(where + ": bad " + ACL + " column");
            }
            acl = BucketAcl.PUBLIC_READ;
        }
        ObjectAttributes attributes = new ObjectAttributes(text(row, CONTENT_TYPE), text(row, CACHE_CONTROL),
                text(row, CONTENT_DISPOSITION), text(row, CONTENT_ENCODING), text(row, CONTENT_LANGUAGE),
                text(row, EXPIRES), user, acl);
        byte[] sort = sortOf(row);
        String versionId = null;
        if (sort != null) {
            if (sort.length != VersionId.SORT_BYTES) {
                throw new CorruptionException(where + ": bad " + VERSION_ID + " column");
            }
            versionId = row.get(VERSION_NULL) != null ? VersionId.NULL : VersionId.encode(sort);
        } else if (row.get(VERSION_NULL) != null) {
            throw new CorruptionException(where + ": " + VERSION_NULL + " without " + VERSION_ID);
        }
        return new ObjectInfo(key, sha, size, etagText, attributes, modified, partCount, checksums, versionId);
    }

    /** The row's sort id; null when it was written before its bucket's versioning was configured. */
    static byte[] sortOf(Row row) {
        ColumnValue v = row.get(VERSION_ID);
        return v == null || v.type() != ColumnValue.Type.FIXED ? null : v.bytes();
    }

    /** The binary MD5 when the ETag is its hex form (with "-partCount" for a multipart upload), else the text. */
    private static ColumnValue etag(String etag, int partCount) {
        String hex = partCount > 0 && etag.endsWith("-" + partCount)
                ? etag.substring(0, etag.length() - ("-" + partCount).length())
                : etag;
        boolean binary = MD5_HEX.matcher(hex).matches() && (partCount > 0) == (hex.length() != etag.length());
        return binary ? ColumnValue.fixed(HEX.parseHex(hex)) : ColumnValue.text(etag);
    }

    /** The decoded bytes when {@code value} is canonical base64 of some bytes, else the text. */
    private static ColumnValue base64(String value) {
        try {
            byte[] bytes = Base64.getDecoder().decode(value);
            if (bytes.length > 0 && bytes.length <= ColumnValue.MAX_FIXED_WIDTH
                    && Base64.getEncoder().encodeToString(bytes).equals(value)) {
                return ColumnValue.fixed(bytes);
            }
        } catch (IllegalArgumentException notBase64) {
            // Kept as text below.
        }
        return ColumnValue.text(value);
    }

    private static void optional(Row.Builder row, String column, String value) {
        if (value != null) {
            row.text(column, value);
        }
    }

    private static boolean isStandard(String column) {
        return switch (column) {
            case CONTENT_SHA256, CONTENT_LENGTH, ETAG, LAST_MODIFIED, PART_COUNT, CONTENT_TYPE, CACHE_CONTROL,
                    CONTENT_DISPOSITION, CONTENT_ENCODING, CONTENT_LANGUAGE, EXPIRES, ACL, VERSION_ID, VERSION_NULL -> true;
            default -> false;
        };
    }

    private static ColumnValue required(Row row, String column, ColumnValue.Type type, String where)
            throws CorruptionException {
        ColumnValue v = row.get(column);
        if (v == null || v.type() != type) {
            throw new CorruptionException(where + ": column " + column + " is " + (v == null ? "missing" : v.type()));
        }
        return v;
    }

    private static String text(Row row, String column) {
        ColumnValue v = row.get(column);
        return v == null ? null : v.asText();
    }
}
