package dev.cairn.service.variants;

import dev.cairn.service.s3.S3Error;
import dev.cairn.service.s3.S3Exception;
import java.util.Locale;
import java.util.function.Function;

/**
 * A variant's options as imgix names them, parsed and checked: {@code width} and {@code height}
 * in output pixels ({@code w} and {@code h} times {@code dpr}; 0 when not given), {@code fit},
 * the crop gravity on each axis, {@code q}, {@code fm} (null: the source's format, or chosen
 * from Accept when {@code autoFormat}).
 */
record VariantOptions(int width, int height, Fit fit, Gravity vertical, Gravity horizontal, int quality,
                      OutputFormat format, boolean autoFormat) {
    static final int DEFAULT_QUALITY = 75;
    private static final double MAX_DPR = 5;

    /** Parses the options {@code param} gives (null: absent); 400 InvalidArgument naming a bad one. */
    static VariantOptions parse(Function<String, String> param, int maxDimension) throws S3Exception {
        double dpr = number(param, "dpr", 1, 0.01, MAX_DPR);
        int w = dimension(param, "w", dpr, maxDimension);
        int h = dimension(param, "h", dpr, maxDimension);
        String fitParam = param.apply("fit");
        Fit fit = Fit.CLIP;
        if (fitParam != null) {
            try {
                fit = Fit.valueOf(fitParam.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw invalid("fit must be crop, clip, max or fill, got '" + fitParam + "'");
            }
        }
        Gravity vertical = Gravity.CENTER;
        Gravity horizontal = Gravity.CENTER;
        String crop = param.apply("crop");
        if (crop != null) {
            for (String g : crop.split(",")) {
                switch (g.trim().toLowerCase(Locale.ROOT)) {
                    case "top" -> vertical = Gravity.TOP;
                    case "bottom" -> vertical = Gravity.BOTTOM;
                    case "left" -> horizontal = Gravity.LEFT;
                    case "right" -> horizontal = Gravity.RIGHT;
                    case "center", "faces", "entropy", "edges", "focalpoint" -> { }
                    default -> throw invalid("crop must be top, bottom, left, right, center or faces, got '" + g + "'");
                }
            }
        }
        int q = (int) number(param, "q", DEFAULT_QUALITY, 0, 100);
        String fm = param.apply("fm");
        OutputFormat format = null;
        if (fm != null) {
            format = OutputFormat.ofParam(fm);
            if (format == null) {
                throw invalid("fm must be jpg, png, webp or avif, got '" + fm + "'");
            }
        }
        String auto = param.apply("auto");
        boolean autoFormat = auto != null && (',' + auto.replace(" ", "") + ',').contains(",format,");
        return new VariantOptions(w, h, fit, vertical, horizontal, q, format, autoFormat);
    }

    /**
     * The options as one canonical string, the format resolved: two requests that render the same
     * variant have the same one, whatever their parameters' order, spelling or defaults. A null
     * format is the source's own (the source is fixed by the key's hash).
     */
    String normalised(OutputFormat resolved) {
        String fm = resolved == null ? "source" : resolved.param();
        StringBuilder s = new StringBuilder().append("w=").append(width).append("&h=").append(height)
                .append("&fit=").append(fit.name().toLowerCase(Locale.ROOT));
        if (fit == Fit.CROP) {
            s.append("&crop=").append(vertical.name().toLowerCase(Locale.ROOT)).append(',')
                    .append(horizontal.name().toLowerCase(Locale.ROOT));
        }
        return s.append("&q=").append(quality).append("&fm=").append(fm).toString();
    }

    private static int dimension(Function<String, String> param, String name, double dpr, int max) throws S3Exception {
        String v = param.apply(name);
        if (v == null) {
            return 0;
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw invalid(name + " must be a whole number of pixels, got '" + v + "'");
        }
        long px = Math.round(n * dpr);
        if (n < 1 || px < 1 || px > max) {
            throw invalid(name + " × dpr must be from 1 to " + max + " pixels, got " + v + (dpr != 1 ? " × " + dpr : ""));
        }
        return (int) px;
    }

    private static double number(Function<String, String> param, String name, double dflt, double min, double max)
            throws S3Exception {
        String v = param.apply(name);
        if (v == null) {
            return dflt;
        }
        double d;
        try {
            d = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            d = Double.NaN;
        }
        if (!(d >= min && d <= max)) {
            throw invalid(name + " must be a number from " + fmt(min) + " to " + fmt(max) + ", got '" + v + "'");
        }
        return d;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    static S3Exception invalid(String message) {
        return new S3Exception(S3Error.INVALID_ARGUMENT, message);
    }
}
