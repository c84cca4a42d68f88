package dev.cairn.backup.run;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.BufferedDataOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges sorted row chunk files into one sorted stream with bounded memory: at most
 * {@link #FAN_IN} files are open at once; more are merged in passes into intermediate chunks.
 * A row present twice (equal in manifest order) is kept once (the first), and so is a key's
 * version {@code null} read both without and with a place ({@link OneNullVersion}).
 */
public final class RowMerge {
    static final int FAN_IN = 64;

    /** Receives merged rows in order. */
    @FunctionalInterface
    public interface Sink {
        void accept(BackupRow row) throws IOException;
    }

    private RowMerge() {
    }

    public static void merge(List<Path> chunks, Path workDir, Sink sink) throws IOException {
        List<Path> level = new ArrayList<>(chunks);
        int pass = 0;
        while (level.size() > FAN_IN) {
            List<Path> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i += FAN_IN) {
                List<Path> group = level.subList(i, Math.min(level.size(), i + FAN_IN));
                Path out = workDir.resolve("merge-" + pass + "-" + next.size() + ".rows");
                try (OutputStream file = Files.newOutputStream(out)) {
                    BufferedDataOutput data = new BufferedDataOutput(file, 1 << 16, null);
                    long[] n = {0};
                    mergeGroup(group, row -> {
                        dev.cairn.backup.archive.RowCodec.writeRow(data, row);
                        n[0]++;
                    });
                    data.writeByte(dev.cairn.backup.archive.RowCodec.TAG_END);
                    data.writeLong(n[0]);
                    data.flush();
                }
                next.add(out);
            }
            level = next;
            pass++;
        }
        mergeGroup(level, sink);
    }

    private record Head(BackupRow row, RowChunks.Reader reader) {
    }

    private static void mergeGroup(List<Path> files, Sink out) throws IOException {
        OneNullVersion sink = new OneNullVersion(out);
        PriorityQueue<Head> heap = new PriorityQueue<>((a, b) -> BackupRow.ORDER.compare(a.row(), b.row()));
        List<RowChunks.Reader> readers = new ArrayList<>();
        try {
            for (Path f : files) {
                RowChunks.Reader r = new RowChunks.Reader(f.toString(), Files.newInputStream(f));
                readers.add(r);
                BackupRow first = r.next();
                if (first != null) {
                    heap.add(new Head(first, r));
                }
            }
            BackupRow last = null;
            while (!heap.isEmpty()) {
                Head h = heap.poll();
                if (last == null || BackupRow.ORDER.compare(last, h.row()) != 0) {
                    sink.accept(h.row());
                    last = h.row();
                }
                BackupRow next = h.reader().next();
                if (next != null) {
                    heap.add(new Head(next, h.reader()));
                }
            }
            sink.finish();
        } finally {
            for (RowChunks.Reader r : readers) {
                r.close();
            }
        }
    }
}
