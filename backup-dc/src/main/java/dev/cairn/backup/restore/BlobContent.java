package dev.cairn.backup.restore;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.run.HashCheckingInputStream;
import dev.cairn.backup.target.Target;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;

/**
 * A row's content read from the archive — a range of its pack, or its own file — its SHA-256 and
 * size checked as it streams.
 */
final class BlobContent implements ContentSource {
    private final Target archive;
    private final BlobLocations locations;
    private final ObjectInfo row;

    BlobContent(Target archive, BlobLocations locations, ObjectInfo row) {
        this.archive = archive;
        this.locations = locations;
        this.row = row;
    }

    @Override
    public String sha256() {
        return row.sha256();
    }

    @Override
    public long size() {
        return row.size();
    }

    @Override
    public String md5() {
        String etag = row.etag();
        return row.partCount() == 0 && etag != null && etag.matches("[0-9a-f]{32}") ? etag : null;
    }

    @Override
    public InputStream open() throws IOException {
        BlobLocations.Location at = locations.find(row.sha256());
        if (at == null) {
            throw new IOException(archive.describe() + ": blob " + row.sha256() + " is missing (run verify)");
        }
        String file = at.file(row.sha256());
        InputStream in = at.packed() ? archive.open(file, at.offset(), at.length()) : archive.open(file);
        if (in == null) {
            throw new IOException(archive.describe() + ": " + file + " holding blob " + row.sha256()
                    + " is missing (run verify)");
        }
        String what = at.packed() ? "archive blob " + row.sha256() + " in " + file + " at offset " + at.offset()
                : "archive blob " + file;
        return new HashCheckingInputStream(in, row.sha256(), row.size(), what);
    }
}
