package dev.cairn.engine.row;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The knobs of a {@link SchemaCatalogue}, each with one default written here. Build with
 * {@link #builder(Path)}; invalid values fail at {@link Builder#build()} naming the option.
 */
public final class SchemaCatalogueOptions {

    /** The default value of {@link #segmentBytes()}: 4 MiB. */
    public static final long DEFAULT_SEGMENT_BYTES = 4L << 20;
    /** The default value of {@link #maxNewSchemasPerTable()}: 64. */
    public static final int DEFAULT_MAX_NEW_SCHEMAS_PER_TABLE = 64;
    /** The default value of {@link #maxSchemas()}: 1,048,576. */
    public static final int DEFAULT_MAX_SCHEMAS = 1 << 20;
    /** The default value of {@link #maxValueBytes()}: 64. */
    public static final int DEFAULT_MAX_VALUE_BYTES = 64;
    /** The default value of {@link #maxValuesPerColumn()}: 256. */
    public static final int DEFAULT_MAX_VALUES_PER_COLUMN = 256;
    /** The default value of {@link #maxValues()}: 65,536. */
    public static final int DEFAULT_MAX_VALUES = 1 << 16;

    private final Path directory;
    private final FileSystem fileSystem;
    private final long segmentBytes;
    private final int maxNewSchemasPerTable;
    private final int maxSchemas;
    private final int maxValueBytes;
    private final int maxValuesPerColumn;
    private final int maxValues;

    private SchemaCatalogueOptions(Builder b) {
        directory = b.directory;
        fileSystem = b.fileSystem;
        segmentBytes = b.segmentBytes;
        maxNewSchemasPerTable = b.maxNewSchemasPerTable;
        maxSchemas = b.maxSchemas;
        maxValueBytes = b.maxValueBytes;
        maxValuesPerColumn = b.maxValuesPerColumn;
        maxValues = b.maxValues;
    }

    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    /** The directory of the catalogue segments, on the fast tier. Nothing else may live in it. */
    public Path directory() {
        return directory;
    }

    /** The file system of all catalogue I/O. The default is the real disk. */
    public FileSystem fileSystem() {
        return fileSystem;
    }

    /** The size past which the next record starts a new segment file. The default value is 4 MiB. */
    public long segmentBytes() {
        return segmentBytes;
    }

    /**
     * The variable-table rule: a table whose rows have created more than this many schema ids is
     * declared variable (durably) and from then on writes self-describing rows for any column set
     * not yet catalogued, so that no table can exhaust ids or bloat the catalogue. The default
     * value is 64.
     */
    public int maxNewSchemasPerTable() {
        return maxNewSchemasPerTable;
    }

    /**
     * The most schema ids the catalogue hands out; past it every new column set is written
     * self-describing. Bounds the catalogue's memory. The default value is 1,048,576.
     */
    public int maxSchemas() {
        return maxSchemas;
    }

    /**
     * The value dictionary takes byte values of at most this many bytes; longer ones are always
     * written inline. 0 turns the dictionary off. The default value is 64.
     */
    public int maxValueBytes() {
        return maxValueBytes;
    }

    /**
     * The most dictionary values one column gets; past it, the column's new values are written
     * inline (the values it has keep their ids). Keeps a high-cardinality column from filling the
     * catalogue. The default value is 256.
     */
    public int maxValuesPerColumn() {
        return maxValuesPerColumn;
    }

    /** The most dictionary values in the whole catalogue; bounds its memory. The default value is 65,536. */
    public int maxValues() {
        return maxValues;
    }

    /** Not thread-safe. */
    public static final class Builder {
        private final Path directory;
        private FileSystem fileSystem = new LocalFileSystem();
        private long segmentBytes = DEFAULT_SEGMENT_BYTES;
        private int maxNewSchemasPerTable = DEFAULT_MAX_NEW_SCHEMAS_PER_TABLE;
        private int maxSchemas = DEFAULT_MAX_SCHEMAS;
        private int maxValueBytes = DEFAULT_MAX_VALUE_BYTES;
        private int maxValuesPerColumn = DEFAULT_MAX_VALUES_PER_COLUMN;
        private int maxValues = DEFAULT_MAX_VALUES;

        private Builder(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
        }

        public Builder fileSystem(FileSystem value) {
            fileSystem = Objects.requireNonNull(value, "fileSystem");
            return this;
        }

        public Builder segmentBytes(long value) {
            segmentBytes = value;
            return this;
        }

        public Builder maxNewSchemasPerTable(int value) {
            maxNewSchemasPerTable = value;
            return this;
        }

        public Builder maxSchemas(int value) {
            maxSchemas = value;
            return this;
        }

        public Builder maxValueBytes(int value) {
            maxValueBytes = value;
            return this;
        }

        public Builder maxValuesPerColumn(int value) {
            maxValuesPerColumn = value;
            return this;
        }

        public Builder maxValues(int value) {
            maxValues = value;
            return this;
        }

        public SchemaCatalogueOptions build() {
            if (maxValueBytes < 0 || maxValueBytes > 1024) {
                throw new IllegalArgumentException("maxValueBytes must be in [0, 1024]: " + maxValueBytes);
            }
            if (maxValuesPerColumn < 0) {
                throw new IllegalArgumentException("maxValuesPerColumn must be >= 0: " + maxValuesPerColumn);
            }
            if (maxValues < 0 || maxValues > (1 << 24)) {
                throw new IllegalArgumentException("maxValues must be in [0, 2^24]: " + maxValues);
            }
            if (segmentBytes < 1024 || segmentBytes > (1L << 30)) {
                throw new IllegalArgumentException("segmentBytes must be in [1024, 2^30]: " + segmentBytes);
            }
            if (maxNewSchemasPerTable < 0) {
                throw new IllegalArgumentException("maxNewSchemasPerTable must be >= 0: " + maxNewSchemasPerTable);
            }
            if (maxSchemas < 0 || maxSchemas > Integer.MAX_VALUE - 2) {
                throw new IllegalArgumentException("maxSchemas must be in [0, 2^31-3]: " + maxSchemas);
            }
            return new SchemaCatalogueOptions(this);
        }
    }
}
