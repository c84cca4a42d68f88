package dev.cairn.backup.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU of this process's threads over a span of time, by group of threads (a thread's name
 * without its number: {@code content-hash-2} counts as {@code content-hash}), sampled from
 * {@code /proc/self/task/<tid>/stat} every {@link #SAMPLE_MILLIS} ms on a thread of its own: which
 * threads are busy when, and how many cores the whole process kept busy. Linux only; elsewhere it
 * records nothing. The sampling itself costs well under 1 % of a core.
 */
final class ThreadCpuTimeline implements AutoCloseable {
    static final int SAMPLE_MILLIS = 100;
    /** Rows of the printed timeline: the span is cut into this many equal slots. */
    static final int SLOTS = 16;
    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

    private record Sample(long nanos, Map<Integer, Long> ticks) {
    }

    private final List<Sample> samples = new ArrayList<>();
    private final Map<Integer, String> groups = new HashMap<>();
    private final Thread sampler;
    private volatile boolean stop;

    private ThreadCpuTimeline() {
        sampler = new Thread(this::sampleUntilStopped, "cpu-timeline");
        sampler.setDaemon(true);
    }

    static ThreadCpuTimeline start() {
        ThreadCpuTimeline t = new ThreadCpuTimeline();
        t.sample();
        t.sampler.start();
        return t;
    }

    private void sampleUntilStopped() {
        while (!stop) {
            try {
                Thread.sleep(SAMPLE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            sample();
        }
    }

    /** Each sample holds every thread seen so far: one that ended keeps the CPU it was last seen with. */
    private void sample() {
        Map<Integer, Long> ticks;
        synchronized (samples) {
            ticks = samples.isEmpty() ? new HashMap<>() : new HashMap<>(samples.get(samples.size() - 1).ticks());
        }
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    int tid = Integer.parseInt(task.getFileName().toString());
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks.put(tid, Long.parseLong(f[11]) + Long.parseLong(f[12]));
                    synchronized (groups) {
                        groups.putIfAbsent(tid, group(name));
                    }
                } catch (IOException | RuntimeException gone) {
                    // a thread that ended meanwhile
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            return;
        }
        synchronized (samples) {
            samples.add(new Sample(System.nanoTime(), ticks));
        }
    }

    /** A thread's name without its number; the JIT's compiler threads as one group. */
    static String group(String name) {
        if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            return "JIT";
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
            return "GC";
        }
        if (name.equals("java")) {
            return "main";
        }
        return name.replaceAll("[-#]?\\d+$", "");
    }

    @Override
    public void close() {
        stop = true;
        sampler.interrupt();
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
    }

    /** CPU seconds per group over the whole span, largest first. */
    Map<String, Double> totals() {
        List<Sample> s = snapshot();
        if (s.size() < 2) {
            return Map.of();
        }
        Map<String, Double> out = perGroup(s.get(0), s.get(s.size() - 1));
        Map<String, Double> sorted = new LinkedHashMap<>();
        out.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    double seconds() {
        List<Sample> s = snapshot();
        return s.size() < 2 ? 0 : (s.get(s.size() - 1).nanos() - s.get(0).nanos()) / 1e9;
    }

    /** Prints the totals, the cores kept busy, and per slot the cores each group kept busy. */
    void print(PrintStream out, String what) {
        List<Sample> s = snapshot();
        Map<String, Double> totals = totals();
        double seconds = seconds();
        if (totals.isEmpty() || seconds <= 0) {
            return;
        }
        double all = totals.values().stream().mapToDouble(Double::doubleValue).sum();
        StringBuilder line = new StringBuilder();
        totals.forEach((g, cpu) -> {
            if (cpu >= 0.005) {
                line.append(line.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %.2f", g, cpu));
            }
        });
        out.printf(Locale.ROOT, "  (%s: %.2f CPU s in %.2f s, %.2f cores busy; CPU s by thread: %s)%n",
                what, all, seconds, all / seconds, line);
        List<String> columns = totals.entrySet().stream().filter(e -> e.getValue() >= 0.05).map(Map.Entry::getKey).toList();
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %8s %6s", "from s", "cores"));
        for (String c : columns) {
            head.append(String.format(Locale.ROOT, " %13.13s", c));
        }
        out.println(head);
        long t0 = s.get(0).nanos();
        long span = s.get(s.size() - 1).nanos() - t0;
        int from = 0;
        for (int slot = 1; slot <= SLOTS; slot++) {
            long end = t0 + span * slot / SLOTS;
            int to = from;
            while (to + 1 < s.size() && s.get(to + 1).nanos() <= end) {
                to++;
            }
            if (to == from) {
                continue;
            }
            double wall = (s.get(to).nanos() - s.get(from).nanos()) / 1e9;
            Map<String, Double> cpu = perGroup(s.get(from), s.get(to));
            double sum = cpu.values().stream().mapToDouble(Double::doubleValue).sum();
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %8.2f %6.2f",
                    (s.get(from).nanos() - t0) / 1e9, sum / wall));
            for (String c : columns) {
                row.append(String.format(Locale.ROOT, " %13.2f", cpu.getOrDefault(c, 0.0) / wall));
            }
            out.println(row);
            from = to;
        }
    }

    private List<Sample> snapshot() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    private Map<String, Double> perGroup(Sample a, Sample b) {
        Map<String, Double> out = new TreeMap<>();
        synchronized (groups) {
            b.ticks().forEach((tid, ticks) -> {
                long delta = ticks - a.ticks().getOrDefault(tid, 0L);
                if (delta > 0) {
                    out.merge(groups.getOrDefault(tid, "?"), delta / TICKS_PER_SECOND, Double::sum);
                }
            });
        }
        return out;
    }
}
