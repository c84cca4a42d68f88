package dev.cairn.loadtest.workload;

import dev.cairn.loadtest.generator.KeyDistribution;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * An operation mix and a request distribution: YCSB's core workloads A–F adapted to objects,
 * and the four of Nakamura and Shudo's MyCassandra study (write-only, write-heavy, read-heavy,
 * read-only; Zipfian requests), and {@code mixed}: every kind of request a store serves, for soaks.
 *
 * <p>Thread-safety: immutable.
 */
public record Workload(String name, Map<Operation, Double> proportions, KeyDistribution distribution,
                       int maxScanLength) {

    /** YCSB's default {@code maxscanlength}: scans list 1 to 100 keys, uniformly. */
    public static final int DEFAULT_MAX_SCAN_LENGTH = 100;

    private static final Map<String, Workload> PRESETS = presets();

    public Workload {
        EnumMap<Operation, Double> copy = new EnumMap<>(Operation.class);
        double sum = 0;
        for (Map.Entry<Operation, Double> e : proportions.entrySet()) {
            double p = e.getValue();
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("proportion of " + e.getKey().label() + " must be in [0, 1], got " + p);
            }
            if (p > 0) {
                copy.put(e.getKey(), p);
                sum += p;
            }
        }
        if (Math.abs(sum - 1) > 1e-9) {
            throw new IllegalArgumentException("workload '" + name + "': proportions must add up to 1, got " + sum);
        }
        if (maxScanLength < 1) {
            throw new IllegalArgumentException("max scan length must be at least 1, got " + maxScanLength);
        }
        proportions = java.util.Collections.unmodifiableMap(copy);
    }

    /** The preset of that name (a–f, write-only, write-heavy, read-heavy, read-only; any case). */
    public static Workload preset(String name) {
        Workload w = PRESETS.get(name.trim().toLowerCase(Locale.ROOT));
        if (w == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "'; known: " + String.join(", ", PRESETS.keySet()));
        }
        return w;
    }

    public static List<String> presetNames() {
        return new ArrayList<>(PRESETS.keySet());
    }

    public Workload withDistribution(KeyDistribution d) {
        return new Workload(name, proportions, d, maxScanLength);
    }

    public Workload withProportions(Map<Operation, Double> p) {
        return new Workload(name + "*", p, distribution, maxScanLength);
    }

    public double proportion(Operation op) {
        return proportions.getOrDefault(op, 0.0);
    }

    /** Whether no operation changes an existing object, so every read can be verified. */
    public boolean readsVerifiable() {
        return proportion(Operation.UPDATE) == 0 && proportion(Operation.READ_MODIFY_WRITE) == 0;
    }

    /** Draws the next operation. */
    public Operation next(SplittableRandom random) {
        double u = random.nextDouble();
        Operation last = null;
        for (Map.Entry<Operation, Double> e : proportions.entrySet()) {
            last = e.getKey();
            u -= e.getValue();
            if (u < 0) {
                return last;
            }
        }
        return last;
    }

    private static Map<String, Workload> presets() {
        Map<String, Workload> m = new LinkedHashMap<>();
        KeyDistribution z = KeyDistribution.ZIPFIAN;
        add(m, "a", z, Operation.READ, 0.5, Operation.UPDATE, 0.5);
        add(m, "b", z, Operation.READ, 0.95, Operation.UPDATE, 0.05);
        add(m, "c", z, Operation.READ, 1.0);
        add(m, "d", KeyDistribution.LATEST, Operation.READ, 0.95, Operation.INSERT, 0.05);
        add(m, "e", z, Operation.SCAN, 0.95, Operation.INSERT, 0.05);
        add(m, "f", z, Operation.READ, 0.5, Operation.READ_MODIFY_WRITE, 0.5);
        add(m, "write-only", z, Operation.UPDATE, 1.0);
        add(m, "write-heavy", z, Operation.READ, 0.5, Operation.UPDATE, 0.5);
        add(m, "read-heavy", z, Operation.READ, 0.95, Operation.UPDATE, 0.05);
        add(m, "read-only", z, Operation.READ, 1.0);
        add(m, "mixed", z, Operation.READ, 0.80, Operation.UPDATE, 0.05, Operation.INSERT, 0.02,
                Operation.SCAN, 0.03, Operation.COPY, 0.04, Operation.DELETE, 0.04, Operation.MULTIPART, 0.02);
        return m;
    }

    private static void add(Map<String, Workload> m, String name, KeyDistribution d, Object... mix) {
        EnumMap<Operation, Double> p = new EnumMap<>(Operation.class);
        for (int i = 0; i < mix.length; i += 2) {
            p.put((Operation) mix[i], (Double) mix[i + 1]);
        }
        m.put(name, new Workload(name, p, d, DEFAULT_MAX_SCAN_LENGTH));
    }
}
