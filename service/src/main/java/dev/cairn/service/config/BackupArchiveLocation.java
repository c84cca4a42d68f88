package dev.cairn.service.config;

import java.nio.file.Path;

/**
 * Where an archive is: a directory, or a bucket and a prefix (empty or ending in {@code /}),
 * as backup-dc's {@code --target} names it.
 */
public record BackupArchiveLocation(Path directory, String bucket, String prefix) {
    public static BackupArchiveLocation parse(String archive) {
        if (archive.startsWith("s3://")) {
            String rest = archive.substring("s3://".length());
            int slash = rest.indexOf('/');
            String bucket = slash < 0 ? rest : rest.substring(0, slash);
            String prefix = slash < 0 ? "" : rest.substring(slash + 1);
            if (bucket.isEmpty()) {
                throw new InvalidSettingException("invalid setting: cairn.console.backup-archive " + archive + " names no bucket");
            }
            return new BackupArchiveLocation(null, bucket, prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/");
        }
        String dir = archive.startsWith("dir:") ? archive.substring("dir:".length()) : archive;
        if (dir.isEmpty() || archive.contains("://")) {
            throw new InvalidSettingException("invalid setting: cairn.console.backup-archive " + archive
                    + ": expected dir:/path, /path or s3://bucket/prefix");
        }
        return new BackupArchiveLocation(Path.of(dir), null, null);
    }
}
