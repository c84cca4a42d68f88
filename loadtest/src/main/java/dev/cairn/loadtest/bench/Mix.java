package dev.cairn.loadtest.bench;

/** Hashing of (seed, index, part, salt) into random-looking longs, as the workloads use. Thread-safety: stateless. */
final class Mix {
    private Mix() {
    }

    static long mix(long seed, long index, long part, long salt) {
        long h = finish(seed ^ salt);
        h = finish(h + index * 0x9e3779b97f4a7c15L);
        return finish(h + part * 0xc2b2ae3d27d4eb4fL);
    }

    /** SplitMix64's output function: a bijection that turns a counter into a random-looking long. */
    static long finish(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** A uniform number in [0, 1) from 53 bits of {@code bits}. */
    static double unit(long bits) {
        return (bits >>> 11) * 0x1.0p-53;
    }
}
