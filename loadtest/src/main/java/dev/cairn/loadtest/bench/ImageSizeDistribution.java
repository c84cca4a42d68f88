package dev.cairn.loadtest.bench;

/**
 * Sizes of image files: a lognormal distribution clipped to {@code [min, max]}.
 *
 * <p>The default has its median at 20 KiB and 90% of sizes under 50 KiB, which fixes
 * sigma = ln(50/20) / z(0.9) = 0.91629 / 1.28155 = 0.7150; the clip keeps sizes in
 * [1 KiB, 1 MiB]. The mean is then about 26.4 KiB. Sampling is by inversion of a uniform draw,
 * so a size is a pure function of that draw: the same seed gives the same sizes on every JDK.
 *
 * <p>Thread-safety: immutable.
 */
public final class ImageSizeDistribution {

    /** The default median: 20 KiB. */
    public static final int DEFAULT_MEDIAN_BYTES = 20 << 10;
    /** The default 90th percentile: 50 KiB. */
    public static final int DEFAULT_P90_BYTES = 50 << 10;
    /** The default smallest size: 1 KiB. */
    public static final int DEFAULT_MIN_BYTES = 1 << 10;
    /** The default largest size: 1 MiB. */
    public static final int DEFAULT_MAX_BYTES = 1 << 20;

    private static final double Z_0_9 = 1.2815515655446004;

    private final double median;
    private final double sigma;
    private final int min;
    private final int max;

    public ImageSizeDistribution(int medianBytes, int p90Bytes, int minBytes, int maxBytes) {
        if (minBytes < 1 || minBytes > medianBytes || medianBytes >= p90Bytes || p90Bytes > maxBytes) {
            throw new IllegalArgumentException("need 1 <= min <= median < p90 <= max, got min=" + minBytes
                    + " median=" + medianBytes + " p90=" + p90Bytes + " max=" + maxBytes);
        }
        this.median = medianBytes;
        this.sigma = Math.log((double) p90Bytes / medianBytes) / Z_0_9;
        this.min = minBytes;
        this.max = maxBytes;
    }

    public static ImageSizeDistribution images() {
        return new ImageSizeDistribution(DEFAULT_MEDIAN_BYTES, DEFAULT_P90_BYTES, DEFAULT_MIN_BYTES, DEFAULT_MAX_BYTES);
    }

    public double sigma() {
        return sigma;
    }

    public double medianBytes() {
        return median;
    }

    public int minBytes() {
        return min;
    }

    public int maxBytes() {
        return max;
    }

    /** The size at quantile {@code u}, for {@code u} in (0, 1). */
    public int sizeAt(double u) {
        double size = median * Math.exp(sigma * inverseNormal(u));
        return (int) Math.max(min, Math.min(max, Math.round(size)));
    }

    /**
     * The standard normal quantile function, by Acklam's rational approximation (relative error
     * below 1.2e-9, ample for sizes in bytes).
     */
    static double inverseNormal(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("quantile must be in (0, 1), got " + p);
        }
        final double[] a = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
            1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
        final double[] b = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
            6.680131188771972e+01, -1.328068155288572e+01};
        final double[] c = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
            -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
        final double[] d = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
            3.754408661907416e+00};
        final double low = 0.02425;
        if (p < low) {
            double q = Math.sqrt(-2 * Math.log(p));
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                    / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        }
        if (p > 1 - low) {
            double q = Math.sqrt(-2 * Math.log(1 - p));
            return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                    / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        }
        double q = p - 0.5;
        double r = q * q;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
}
