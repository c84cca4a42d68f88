package dev.cairn.backup.source.embedded;

import java.util.Locale;

/** {@code --read-rate}: bytes per second, 0 for unlimited. */
final class ReadRateOption {
    private ReadRateOption() {
    }

    /** Parses {@code 0}, {@code 52428800}, {@code 50M}, {@code 512K}, {@code 1G} (binary multiples). */
    static long parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("K") || t.endsWith("M") || t.endsWith("G")) {
            unit = switch (t.charAt(t.length() - 1)) {
                case 'K' -> 1L << 10;
                case 'M' -> 1L << 20;
                default -> 1L << 30;
            };
            t = t.substring(0, t.length() - 1);
        }
        try {
            long v = Long.parseLong(t);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(v, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("--read-rate " + text + ": expected bytes per second like 50M, 512K or 0");
        }
    }
}
