package dev.cairn.loadtest.generator;

import java.util.Locale;

/** The request distributions a run can pick keys by. Thread-safety: immutable. */
public enum KeyDistribution {
    /** YCSB's scrambled Zipfian, skew 0.99. */
    ZIPFIAN,
    /** Zipfian over recency: the newest keys are the most popular. */
    LATEST,
    /** Every key equally likely. */
    UNIFORM,
    /** A hot set of keys gets most operations (see {@link HotspotChooser}). */
    HOTSPOT;

    public KeyChooser chooser(double hotSet, double hotOperations) {
        return switch (this) {
            case ZIPFIAN -> new ScrambledZipfianChooser();
            case LATEST -> new LatestChooser();
            case UNIFORM -> new UniformChooser();
            case HOTSPOT -> new HotspotChooser(hotSet, hotOperations);
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static KeyDistribution parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown key distribution '" + name
                    + "' (zipfian, latest, uniform, hotspot)", e);
        }
    }
}
