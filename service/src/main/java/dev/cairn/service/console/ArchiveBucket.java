package dev.cairn.service.console;

import java.io.IOException;
import java.util.List;

/** What {@link S3Reports} asks of the bucket an archive lies in ({@link S3ArchiveClient}). */
interface ArchiveBucket {
    /** One listed object: its key and ETag (without quotes). */
    record Listed(String key, String etag) {
    }

    /** The server and bucket, for messages. */
    String describe();

    /**
     * Every key under {@code prefix} after {@code startAfter} (null: from the first), in S3's
     * (UTF-8 byte) order, with at most {@code maxPages} requests.
     */
    List<Listed> list(String prefix, String startAfter, int maxPages) throws IOException;

    /** The object's bytes, or null when there is no such key; larger than {@code maxBytes}: an error. */
    byte[] get(String key, int maxBytes) throws IOException;
}
