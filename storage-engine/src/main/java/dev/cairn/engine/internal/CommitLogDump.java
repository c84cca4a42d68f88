package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/** Prints a commit log segment: each record's batch and operations, and where the valid part ends. */
public final class CommitLogDump {
    private CommitLogDump() {
    }

    public static void dump(FileSystem fs, Path path, PrintStream out) throws IOException {
        RecordFile.Contents contents = RecordFile.read(fs, path, CommitPipeline.LOG_MAGIC, CommitPipeline.LOG_FORMAT_VERSION);
        out.printf("commit log %s: format version %d, %d bytes%n", path, CommitPipeline.LOG_FORMAT_VERSION, contents.fileBytes());
        for (byte[] record : contents.records()) {
            BatchCodec.Decoded batch = BatchCodec.decode(record, path.toString());
            out.printf("  batch seq=%d ops=%d%n", batch.firstSequence(), batch.ops().size());
            long seq = batch.firstSequence();
            for (BatchCodec.LoggedOp op : batch.ops()) {
                String value = switch (op.kind()) {
                    case InternalKeys.KIND_DELETE -> "DELETE";
                    case InternalKeys.KIND_VALUE_POINTER -> "POINTER " + ValuePointer.decodeStored(op.value(), path.toString());
                    default -> "VALUE " + op.value().length + " bytes";
                };
                out.printf("    seq=%d table=%d key=%s %s%n", seq++, op.tableId(), Printable.key(op.key()), value);
            }
        }
        out.printf("  valid bytes: %d%s%n", contents.validBytes(),
                contents.damagedTail() ? " (torn or damaged tail after this: ignored by recovery)" : "");
    }
}
