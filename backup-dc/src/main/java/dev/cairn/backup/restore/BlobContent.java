package dev.cairn.backup.restore;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.run.HashCheckingInputStream;
import dev.cairn.backup.target.Target;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import dev.cairn.backup.target.ContentMismatchException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A row's content read from the archive — a range of its pack, or its own file — its SHA-256 and
 * size checked as it streams. A blob found missing or other than its hash names is recorded in
 * {@link DamagedBlobs} before the failure is thrown.
 */
final class BlobContent implements ContentSource {
    private final Target archive;
    private final BlobLocations locations;
    private final ObjectInfo row;
    private final DamagedBlobs damaged;

    BlobContent(Target archive, BlobLocations locations, ObjectInfo row, DamagedBlobs damaged) {
        this.archive = archive;
        this.locations = locations;
        this.row = row;
        this.damaged = damaged;
    }

    private IOException damaged(String reason) {
        damaged.add(row.sha256(), reason);
        return new IOException(reason);
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
            throw damaged(archive.describe() + ": blob " + row.sha256() + " is missing (run verify)");
        }
        String file = at.file(row.sha256());
        InputStream in = at.packed() ? archive.open(file, at.offset(), at.length()) : archive.open(file);
        if (in == null) {
            throw damaged(archive.describe() + ": " + file + " holding blob " + row.sha256()
                    + " is missing (run verify)");
        }
        String what = at.packed() ? "archive blob " + row.sha256() + " in " + file + " at offset " + at.offset()
                : "archive blob " + file;
        return new FilterInputStream(new HashCheckingInputStream(in, row.sha256(), row.size(), what)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    return super.read(b, off, len);
                } catch (ContentMismatchException e) {
                    damaged.add(row.sha256(), e.getMessage());
                    throw e;
                }
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public long skip(long n) {
                throw new UnsupportedOperationException("skip would bypass the hash check");
            }
        };
    }
}
