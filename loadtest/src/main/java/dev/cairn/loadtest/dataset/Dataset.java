package dev.cairn.loadtest.dataset;

import dev.cairn.loadtest.bench.ImageWorkload;
import java.nio.charset.StandardCharsets;

/**
 * The objects of a dataset, each a pure function of the spec and its index: keys shaped like a
 * portal's image tree ({@code img/<directory>/<name>.jpg}, {@value ImageWorkload#OBJECTS_PER_DIRECTORY}
 * files per directory, as the classified-ads portal's 13 million files in 8 thousand directories), image-like
 * sizes, incompressible content. A {@code duplicateFraction} of the objects (chosen by hash of
 * the index) carry the load-time content of an earlier object, so a content-addressed store
 * stores them once.
 *
 * <p>Thread-safety: immutable.
 */
public final class Dataset {

    private static final long DUPLICATE_SALT = 0x6475706c69636174L;

    private final DatasetSpec spec;
    private final ImageWorkload objects;

    public Dataset(DatasetSpec spec) {
        this.spec = spec;
        this.objects = new ImageWorkload(spec.seed(), spec.sizes());
    }

    public DatasetSpec spec() {
        return spec;
    }

    public String key(long index) {
        return new String(objects.key(index), StandardCharsets.US_ASCII);
    }

    /** The index whose load-time content object {@code index} carries (itself unless a duplicate). */
    public long contentIndex(long index) {
        long i = index;
        while (i > 0) {
            long h = mix(spec.seed(), i);
            double u = (h >>> 11) * 0x1.0p-53;
            if (u >= spec.duplicateFraction()) {
                return i;
            }
            i = Math.floorMod(h * 0x9e3779b97f4a7c15L, i);
        }
        return 0;
    }

    /** Object {@code index}'s content in {@code version} (0 at load, higher for updates). */
    public byte[] value(long index, int version) {
        return objects.value(version == 0 ? contentIndex(index) : index, version);
    }

    public int valueSize(long index, int version) {
        return objects.valueSize(version == 0 ? contentIndex(index) : index, version);
    }

    /** Whether {@code value} is object {@code index}'s load-time content (length and first bytes). */
    public boolean isLoadValue(byte[] value, long index) {
        return objects.looksLike(value, contentIndex(index), 0);
    }

    private static long mix(long seed, long index) {
        long z = seed ^ DUPLICATE_SALT;
        z += index * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
