package dev.cairn.loadtest.dataset;

import dev.cairn.loadtest.bench.ImageSizeDistribution;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything that determines a dataset: its name (the key registry's namespace), seed, object
 * count (0 while a load is under way), size distribution (lognormal by median and 90th percentile, clipped; or one fixed
 * size when {@code fixedSize > 0}) and the fraction of objects whose content duplicates an
 * earlier object's.
 *
 * <p>Thread-safety: immutable.
 */
public record DatasetSpec(String name, long seed, long count, int sizeMedian, int sizeP90, int sizeMin,
                          int sizeMax, int fixedSize, double duplicateFraction) {

    public DatasetSpec {
        if (name == null || name.isEmpty() || !name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("dataset name must be letters, digits, '.', '_' or '-', got '" + name + "'");
        }
        if (count < 0) {
            throw new IllegalArgumentException("object count must not be negative, got " + count);
        }
        if (!(duplicateFraction >= 0 && duplicateFraction < 1)) {
            throw new IllegalArgumentException("duplicate fraction must be in [0, 1), got " + duplicateFraction);
        }
        sizes(fixedSize, sizeMedian, sizeP90, sizeMin, sizeMax);
    }

    public ImageSizeDistribution sizes() {
        return sizes(fixedSize, sizeMedian, sizeP90, sizeMin, sizeMax);
    }

    public DatasetSpec withCount(long newCount) {
        return new DatasetSpec(name, seed, newCount, sizeMedian, sizeP90, sizeMin, sizeMax, fixedSize, duplicateFraction);
    }

    private static ImageSizeDistribution sizes(int fixed, int median, int p90, int min, int max) {
        return fixed > 0 ? ImageSizeDistribution.fixed(fixed) : new ImageSizeDistribution(median, p90, min, max);
    }

    /** The fields as strings, as the key registry stores them. */
    public Map<String, String> toFields() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("seed", Long.toString(seed));
        m.put("count", Long.toString(count));
        m.put("sizeMedian", Integer.toString(sizeMedian));
        m.put("sizeP90", Integer.toString(sizeP90));
        m.put("sizeMin", Integer.toString(sizeMin));
        m.put("sizeMax", Integer.toString(sizeMax));
        m.put("fixedSize", Integer.toString(fixedSize));
        m.put("duplicateFraction", Double.toString(duplicateFraction));
        return m;
    }

    public static DatasetSpec fromFields(Map<String, String> m) {
        try {
            return new DatasetSpec(m.get("name"), Long.parseLong(m.get("seed")), Long.parseLong(m.get("count")),
                    Integer.parseInt(m.get("sizeMedian")), Integer.parseInt(m.get("sizeP90")),
                    Integer.parseInt(m.get("sizeMin")), Integer.parseInt(m.get("sizeMax")),
                    Integer.parseInt(m.get("fixedSize")), Double.parseDouble(m.get("duplicateFraction")));
        } catch (NullPointerException | NumberFormatException e) {
            throw new IllegalArgumentException("the key registry's dataset description is incomplete: " + m, e);
        }
    }
}
