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

    private final Path directory;
    private final FileSystem fileSystem;
    private final long segmentBytes;
    private final int maxNewSchemasPerTable;
    private final int maxSchemas;

    private SchemaCatalogueOptions(Builder b) {
        directory = b.directory;
        fileSystem = b.fileSystem;
        segmentBytes = b.segmentBytes;
        maxNewSchemasPerTable = b.maxNewSchemasPerTable;
        maxSchemas = b.maxSchemas;
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

    /** Not thread-safe. */
    public static final class Builder {
        private final Path directory;
        private FileSystem fileSystem = new LocalFileSystem();
        private long segmentBytes = DEFAULT_SEGMENT_BYTES;
        private int maxNewSchemasPerTable = DEFAULT_MAX_NEW_SCHEMAS_PER_TABLE;
        private int maxSchemas = DEFAULT_MAX_SCHEMAS;

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

        public SchemaCatalogueOptions build() {
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
