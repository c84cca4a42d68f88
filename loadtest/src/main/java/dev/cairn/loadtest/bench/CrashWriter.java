package dev.cairn.loadtest.bench;

import dev.cairn.engine.Engine;
import dev.cairn.engine.Table;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process the scale benchmark kills with SIGKILL: opens the engine, prints {@code open},
 * then writes objects {@code start, start + 1, ...} (version 0 of the benchmark's workload) on
 * several threads and prints {@code acked <index>} after each write returns, until killed or
 * {@code count} objects are written. What it printed is what the engine acknowledged, so the
 * benchmark can check after reopening that none of it was lost.
 *
 * <p>usage: {@code CrashWriter <directory> <seed> <start> <count> <threads> <blockCacheBytes>}
 */
public final class CrashWriter {

    private CrashWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        ImageWorkload workload = new ImageWorkload(Long.parseLong(args[1]), ImageSizeDistribution.images());
        long start = Long.parseLong(args[2]);
        long count = Long.parseLong(args[3]);
        int threads = Integer.parseInt(args[4]);
        long blockCacheBytes = Long.parseLong(args[5]);
        PrintStream out = System.out;
        try (Engine engine = ScaleEngine.open(directory, new LocalFileSystem(), blockCacheBytes)) {
            Table table = engine.table(ScaleEngine.TABLE);
            out.println("open");
            out.flush();
            AtomicLong next = new AtomicLong(start);
            Thread[] writers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                writers[t] = new Thread(() -> {
                    try {
                        for (long i = next.getAndIncrement(); i < start + count; i = next.getAndIncrement()) {
                            table.put(workload.key(i), workload.value(i, 0));
                            synchronized (out) {
                                out.println("acked " + i);
                                out.flush();
                            }
                        }
                    } catch (Exception e) {
                        e.printStackTrace();
                        System.exit(1);
                    }
                }, "crash-writer-" + t);
                writers[t].start();
            }
            for (Thread writer : writers) {
                writer.join();
            }
            out.println("done");
            out.flush();
        }
    }
}
