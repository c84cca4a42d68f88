package dev.cairn.backup.restore;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.run.HashCheckingInputStream;
import dev.cairn.backup.target.Target;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;

/** A row's content read from the archive, its SHA-256 and size checked as it streams. */
final class BlobContent implements ContentSource {
    private final Target archive;
    private final ObjectInfo row;

    BlobContent(Target archive, ObjectInfo row) {
        this.archive = archive;
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
        String name = ArchiveLayout.blob(row.sha256());
        InputStream in = archive.open(name);
        if (in == null) {
            throw new IOException(archive.describe() + ": blob " + name + " is missing (run verify)");
        }
        return new HashCheckingInputStream(in, row.sha256(), row.size(), "archive blob " + name);
    }
}
