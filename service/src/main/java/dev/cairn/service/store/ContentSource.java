package dev.cairn.service.store;

import java.io.IOException;
import java.io.InputStream;

/**
 * Content offered to a store, whose digest is already known. A store that already holds content
 * with this SHA-256 does not read it again.
 */
public interface ContentSource {

    /** Lower-case hex SHA-256 of exactly the bytes {@link #open()} yields. */
    String sha256();

    long size();

    /** Lower-case hex MD5 of the bytes when already known, else null. */
    default String md5() {
        return null;
    }

    /** A fresh stream over the bytes; may be called more than once. */
    InputStream open() throws IOException;
}
