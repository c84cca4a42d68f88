package dev.cairn.engine.internal;

import java.nio.file.Path;
import java.util.OptionalLong;

/** The names of the files in an engine directory. One number space for all of them. */
final class FileNames {
    static final String CURRENT = "CURRENT";
    static final String LOCK = "LOCK";
    static final String MANIFEST_PREFIX = "MANIFEST-";
    static final String LOG_SUFFIX = ".log";
    static final String TABLE_SUFFIX = ".sst";
    static final String VALUE_SUFFIX = ".vlog";
    static final String TEMP_SUFFIX = ".tmp";

    enum Kind { CURRENT, LOCK, MANIFEST, LOG, TABLE, VALUE, TEMP, UNKNOWN }

    private FileNames() {
    }

    static Path log(Path dir, long number) {
        return dir.resolve(String.format("%06d%s", number, LOG_SUFFIX));
    }

    static Path table(Path dir, long number) {
        return dir.resolve(String.format("%06d%s", number, TABLE_SUFFIX));
    }

    static Path value(Path dir, long number) {
        return dir.resolve(String.format("%06d%s", number, VALUE_SUFFIX));
    }

    static Path manifest(Path dir, long number) {
        return dir.resolve(String.format("%s%06d", MANIFEST_PREFIX, number));
    }

    static Kind kind(String name) {
        if (name.equals(CURRENT)) {
            return Kind.CURRENT;
        }
        if (name.equals(LOCK)) {
            return Kind.LOCK;
        }
        if (name.endsWith(TEMP_SUFFIX)) {
            return Kind.TEMP;
        }
        if (name.startsWith(MANIFEST_PREFIX) && number(name).isPresent()) {
            return Kind.MANIFEST;
        }
        if (number(name).isEmpty()) {
            return Kind.UNKNOWN;
        }
        if (name.endsWith(LOG_SUFFIX)) {
            return Kind.LOG;
        }
        if (name.endsWith(TABLE_SUFFIX)) {
            return Kind.TABLE;
        }
        if (name.endsWith(VALUE_SUFFIX)) {
            return Kind.VALUE;
        }
        return Kind.UNKNOWN;
    }

    /** The number in a file name, if it has one. */
    static OptionalLong number(String name) {
        String digits = name.startsWith(MANIFEST_PREFIX) ? name.substring(MANIFEST_PREFIX.length()) : name;
        int dot = digits.indexOf('.');
        if (dot >= 0) {
            digits = digits.substring(0, dot);
        }
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 18) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(digits));
    }
}
