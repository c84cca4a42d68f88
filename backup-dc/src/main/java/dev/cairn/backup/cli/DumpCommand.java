package dev.cairn.backup.cli;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.ManifestHeader;
import dev.cairn.backup.archive.ManifestReader;
import dev.cairn.backup.archive.ManifestTrailer;
import dev.cairn.backup.archive.PackFormat;
import dev.cairn.backup.archive.PackReader;
import dev.cairn.backup.run.HashCheckingInputStream;
import dev.cairn.backup.run.RowChunks;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code backup dump FILE}: prints a manifest, a pack, a pack index or a row chunk field by field. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Print a backup manifest (checking its checksum), a pack (*.pack: each blob, re-hashed), a pack "
                + "index (*.idx, checking its checksum) or a run's row chunk (*.rows), one row per line.")
public final class DumpCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "a manifest, pack, pack index or row chunk file")
    Path file;

    @Option(names = "--header-only", description = "print the header and buckets only")
    boolean headerOnly;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        byte[] magic;
        byte[] version;
        try (InputStream in = Files.newInputStream(file)) {
            magic = in.readNBytes(8);
            version = in.readNBytes(2);
        }
        if (java.util.Arrays.equals(magic, PackFormat.PACK_MAGIC)) {
            return dumpPack(out);
        }
        if (java.util.Arrays.equals(magic, PackFormat.INDEX_MAGIC)) {
            PackFormat.Index index = PackFormat.decodeIndex(file.toString(), Files.readAllBytes(file));
            out.println("pack index " + file);
            out.println("  pack id:    " + index.packId());
            out.println("  pack size:  " + index.packSize());
            out.println("blobs: " + index.entries().size());
            for (PackFormat.IndexEntry e : index.entries()) {
                out.println("  " + e.sha256() + " offset=" + e.offset() + " length=" + e.length());
            }
            out.println("checksum=ok");
            return 0;
        }
        if (file.toString().endsWith(".rows")) {
            try (RowChunks.Reader r = new RowChunks.Reader(file.toString(), Files.newInputStream(file))) {
                long n = 0;
                for (BackupRow row = r.next(); row != null; row = r.next()) {
                    print(out, row);
                    n++;
                }
                out.println("end: " + n + " rows");
            }
            return 0;
        }
        try (InputStream in = Files.newInputStream(file); ManifestReader r = new ManifestReader(file.toString(), in)) {
            ManifestHeader h = r.header();
            out.println("manifest " + file);
            out.println("  version:    " + (version.length == 2 ? ((version[0] & 0xFF) << 8 | (version[1] & 0xFF)) : "?"));
            out.println("  backup id:  " + h.backupId());
            out.println("  parent id:  " + (h.parentId() == null ? "(none)" : h.parentId()));
            out.println("  started:    " + Instant.ofEpochMilli(h.startedMillis()) + " (" + h.startedMillis() + ")");
            out.println("  finished:   " + Instant.ofEpochMilli(h.finishedMillis()) + " (" + h.finishedMillis() + ")");
            out.println("  source:     " + h.source());
            out.println("buckets: " + h.buckets().size());
            for (BucketInfo b : h.buckets()) {
                out.println("  " + b.name() + " created=" + Instant.ofEpochMilli(b.createdMillis()) + " acl=" + b.acl().cannedName()
                        + (b.versioning().status() == null ? "" : " versioning=" + b.versioning().status()));
            }
            if (headerOnly) {
                return 0;
            }
            out.println("rows:");
            for (BackupRow row = r.next(); row != null; row = r.next()) {
                print(out, row);
            }
            ManifestTrailer t = r.trailer();
            out.println("trailer: objects=" + t.objects() + " logicalBytes=" + t.logicalBytes() + " copiedBlobs="
                    + t.copiedBlobs() + " copiedBytes=" + t.copiedBytes() + " checksum=ok");
        }
        return 0;
    }

    /** Every blob of a pack in file order, each re-hashed; exit 1 when one does not match or the pack is damaged. */
    private int dumpPack(PrintStream out) throws java.io.IOException {
        int bad = 0;
        try (PackReader r = new PackReader(file.toString(), Files.newInputStream(file))) {
            out.println("pack " + file);
            out.println("  pack id:    " + r.packId());
            out.println("blobs:");
            long n = 0;
            for (PackReader.Entry e = r.next(); e != null; e = r.next()) {
                String status;
                try {
                    new HashCheckingInputStream(e.content(), e.sha256(), e.length(), "blob").drain();
                    status = "sha256 ok";
                } catch (dev.cairn.backup.target.SourceReadException mismatch) {
                    status = "CORRUPT: " + mismatch.getMessage();
                    bad++;
                }
                out.println("  " + e.sha256() + " offset=" + e.offset() + " length=" + e.length() + " " + status);
                n++;
            }
            out.println("end: " + n + " blobs, " + r.position() + " bytes");
        }
        return bad == 0 ? 0 : 1;
    }

    private static void print(PrintStream out, BackupRow row) {
        StringBuilder b = new StringBuilder("  ").append(row.bucket()).append('/').append(row.key());
        if (row.isVersion()) {
            ObjectVersion v = row.version().version();
            byte[] order = row.order();
            b.append(" version=").append(v.versionId())
                    .append(" place=").append(order == null ? "(none)" : dev.cairn.store.Hex.encode(order));
            if (v.deleteMarker()) {
                out.println(b.append(" deleteMarker lastModified=").append(Instant.ofEpochMilli(v.lastModified())));
                return;
            }
        }
        ObjectInfo o = row.info();
        ObjectAttributes a = o.attributes();
        b.append(" sha256=").append(o.sha256()).append(" size=").append(o.size())
                .append(" etag=").append(o.etag()).append(" lastModified=").append(Instant.ofEpochMilli(o.lastModified()))
                .append(" parts=").append(o.partCount());
        if (row.partSizes() != null) {
            b.append(" partSizes=").append(java.util.Arrays.stream(row.partSizes()).mapToObj(Long::toString)
                    .collect(java.util.stream.Collectors.joining(",")));
        }
        field(b, "contentType", a.contentType());
        field(b, "cacheControl", a.cacheControl());
        field(b, "contentDisposition", a.contentDisposition());
        field(b, "contentEncoding", a.contentEncoding());
        field(b, "contentLanguage", a.contentLanguage());
        field(b, "expires", a.expires());
        if (a.acl() != dev.cairn.store.BucketAcl.PRIVATE) {
            b.append(" acl=").append(a.acl().cannedName());
        }
        if (!a.userMetadata().isEmpty()) {
            b.append(" meta=").append(a.userMetadata());
        }
        if (!o.checksums().isEmpty()) {
            b.append(" checksums=").append(o.checksums());
        }
        out.println(b);
    }

    private static void field(StringBuilder b, String name, String value) {
        if (value != null) {
            b.append(' ').append(name).append('=').append(value);
        }
    }
}
