package dev.cairn.backup.archive;

import dev.cairn.store.ObjectInfo;
import dev.cairn.store.Utf8Order;
import java.util.Comparator;

/** One object row of a backup: the bucket it lives in and everything the store knows of it. */
public record BackupRow(String bucket, ObjectInfo info) {

    /** Manifest order: bucket, then key, both in UTF-8 byte order (the order of S3 listings). */
    public static final Comparator<BackupRow> ORDER = Comparator
            .comparing(BackupRow::bucket, Utf8Order.COMPARATOR)
            .thenComparing((BackupRow r) -> r.info().key(), Utf8Order.COMPARATOR);
}
