package dev.cairn.loadtest.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart as inline SVG: linear or logarithmic axes, a shaded window (the traversal),
 * labelled ticks, a legend. No script, no external style.
 *
 * <p>Thread-safety: not thread-safe; build one chart per thread.
 */
final class SvgChart {

    /** One line: points (x, y), a colour, dashed or not. */
    record Series(String name, double[] xs, double[] ys, String colour, boolean dashed) {
    }

    /** A tick: position on the axis's scale and its label. */
    record Tick(double at, String label) {
    }

    private static final int WIDTH = 900;
    private static final int HEIGHT = 320;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();
    private double windowFrom = Double.NaN;
    private double windowTo = Double.NaN;
    private boolean logX;
    private boolean logY;
    private List<Tick> xTicks;

    SvgChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    SvgChart add(Series s) {
        series.add(s);
        return this;
    }

    SvgChart window(double from, double to) {
        windowFrom = from;
        windowTo = to;
        return this;
    }

    SvgChart logX(List<Tick> ticks) {
        logX = true;
        xTicks = ticks;
        return this;
    }

    SvgChart logY() {
        logY = true;
        return this;
    }

    String render() {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.xs().length; i++) {
                double x = tx(s.xs()[i]);
                double y = ty(s.ys()[i]);
                if (Double.isFinite(x) && Double.isFinite(y)) {
                    xMin = Math.min(xMin, x);
                    xMax = Math.max(xMax, x);
                    yMin = Math.min(yMin, y);
                    yMax = Math.max(yMax, y);
                }
            }
        }
        if (!Double.isFinite(xMin)) {
            xMin = 0;
            xMax = 1;
            yMin = 0;
            yMax = 1;
        }
        if (!logY) {
            yMin = 0;
        } else {
            yMin = Math.floor(yMin);
            yMax = Math.ceil(yMax);
        }
        if (yMax <= yMin) {
            yMax = yMin + 1;
        }
        if (xMax <= xMin) {
            xMax = xMin + 1;
        }
        yMax = logY ? yMax : yMax * 1.08;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                LEFT, escape(title)));
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        if (Double.isFinite(windowFrom)) {
            double a = px(tx(windowFrom), xMin, xMax, plotW);
            double b = px(tx(windowTo), xMin, xMax, plotW);
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f4d03f\" "
                    + "fill-opacity=\"0.25\"/><text x=\"%.1f\" y=\"%d\" fill=\"#9a7d0a\">traversal</text>%n",
                    a, TOP, Math.max(1, b - a), plotH, a + 3, TOP + 12));
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>%n",
                LEFT, TOP, plotW, plotH));
        for (Tick t : yTicks(yMin, yMax)) {
            double y = TOP + plotH - (t.at() - yMin) / (yMax - yMin) * plotH;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT, LEFT + plotW, y, y, LEFT - 5, y + 4, escape(t.label())));
        }
        for (Tick t : xTicks == null ? linearTicks(xMin, xMax) : xTicks) {
            double x = px(t.at(), xMin, xMax, plotW);
            if (x < LEFT - 0.5 || x > LEFT + plotW + 0.5) {
                continue;
            }
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x, x, TOP, TOP + plotH, x, TOP + plotH + 15, escape(t.label())));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, HEIGHT - 8, escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">%s</text>%n",
                TOP + plotH / 2, TOP + plotH / 2, escape(yLabel)));
        int legendX = LEFT + 10;
        for (Series s : series) {
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < s.xs().length; i++) {
                double x = tx(s.xs()[i]);
                double y = ty(s.ys()[i]);
                if (!Double.isFinite(x) || !Double.isFinite(y)) {
                    continue;
                }
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(x, xMin, xMax, plotW),
                        TOP + plotH - (Math.min(y, yMax) - yMin) / (yMax - yMin) * plotH));
            }
            svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"%s\"/>%n",
                    s.colour(), s.dashed() ? " stroke-dasharray=\"5,3\"" : "", points.toString().trim()));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", legendX, legendX + 18, TOP + 12 + 16, TOP + 12 + 16,
                    s.colour(), s.dashed() ? " stroke-dasharray=\"5,3\"" : "", legendX + 22, TOP + 16 + 16, escape(s.name())));
            legendX += 30 + 7 * s.name().length();
        }
        return svg.append("</svg>\n").toString();
    }

    private double tx(double x) {
        return logX ? Math.log10(x) : x;
    }

    private double ty(double y) {
        return logY ? (y > 0 ? Math.log10(y) : Double.NaN) : y;
    }

    private static double px(double x, double min, double max, int plotW) {
        return LEFT + (x - min) / (max - min) * plotW;
    }

    private List<Tick> yTicks(double min, double max) {
        if (!logY) {
            return linearTicks(min, max);
        }
        List<Tick> ticks = new ArrayList<>();
        for (int e = (int) Math.floor(min); e <= (int) Math.ceil(max); e++) {
            double v = Math.pow(10, e);
            ticks.add(new Tick(e, v >= 1 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%s", v)));
        }
        return ticks;
    }

    private static List<Tick> linearTicks(double min, double max) {
        double span = max - min;
        double step = Math.pow(10, Math.floor(Math.log10(span / 5)));
        if (span / step > 10) {
            step *= 2;
        }
        if (span / step > 10) {
            step *= 2.5;
        }
        List<Tick> ticks = new ArrayList<>();
        for (double v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
            ticks.add(new Tick(v, step >= 1 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.2f", v)));
        }
        return ticks;
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
