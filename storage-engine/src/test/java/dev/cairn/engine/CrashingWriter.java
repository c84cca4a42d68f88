package dev.cairn.engine;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link KillNineTest}: writes with several threads and prints
 * {@code ACK slot version} after each acknowledged write, until it is killed.
 */
public final class CrashingWriter {
    private CrashingWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        int slotsPerThread = Integer.parseInt(args[2]);
        int firstVersion = Integer.parseInt(args[3]);
        PrintStream out = new PrintStream(System.out, false);
        Engine engine = Engine.open(EngineOptions.builder(dir).memtableBytes(256 << 10).valueThreshold(1024)
                .valueFileBytes(1 << 20).targetFileBytes(128 << 10).level1Bytes(512 << 10).build());
        Table table = engine.table("t");
        System.out.println("READY");
        System.out.flush();
        for (int t = 0; t < threads; t++) {
            int writer = t;
            Thread thread = new Thread(() -> {
                Random random = new Random(writer * 31L + firstVersion);
                int version = firstVersion;
                try {
                    while (true) {
                        int slot = writer * slotsPerThread + random.nextInt(slotsPerThread);
                        version++;
                        String key = "k" + slot;
                        table.put(key.getBytes(), EngineCrashTest.valueOf(key, version, null));
                        synchronized (out) {
                            out.println("ACK " + slot + " " + version);
                            out.flush();
                        }
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                }
            });
            thread.start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
