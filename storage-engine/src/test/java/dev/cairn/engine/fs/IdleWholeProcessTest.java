package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ThreadPriority#idleWholeProcess} in a JVM of its own (idling this one would slow every
 * test after it): every thread it had, the JVM's own among them, and a thread made afterwards run
 * in the idle CPU class.
 */
class IdleWholeProcessTest {

    @Test
    void everyThreadAndEveryLaterOneIsIdle() throws Exception {
        assumeTrue(ThreadPriority.currentCpuPolicy() >= 0, "thread priorities need Linux with libc");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                Probe.class.getName()).redirectErrorStream(true).start();
        String out;
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the probe ended");
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        } finally {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue(), out);
        String last = out.lines().reduce((a, b) -> b).orElse("");
        assumeTrue(!last.startsWith("idled=0 "), "this machine lets a process idle itself: " + out);
        assertTrue(last.matches("idled=\\d+ threads=\\d+ normal=\\[\\] later=5"), out);
    }

    /** Idles itself, then prints how many threads took it, which still run in another class, and a new thread's class. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            int idled = ThreadPriority.idleWholeProcess();
            int[] later = new int[1];
            Thread t = new Thread(() -> later[0] = ThreadPriority.currentCpuPolicy());
            t.start();
            t.join();
            List<String> normal = new ArrayList<>();
            int threads = 0;
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
                for (Path task : tasks) {
                    threads++;
                    int policy = policyOf(task);
                    if (policy >= 0 && policy != ThreadPriority.SCHED_IDLE) {
                        normal.add(task.getFileName() + ":" + policy);
                    }
                }
            }
            System.out.println("idled=" + idled + " threads=" + threads + " normal=" + normal + " later=" + later[0]);
        }

        /** Field 41 of the thread's stat line; -1 when the thread ended meanwhile. */
        private static int policyOf(Path task) {
            try {
                String stat = Files.readString(task.resolve("stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Integer.parseInt(fields[41 - 3]);
            } catch (IOException e) {
                return -1;
            }
        }
    }
}
