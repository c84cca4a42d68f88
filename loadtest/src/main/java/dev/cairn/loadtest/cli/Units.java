package dev.cairn.loadtest.cli;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;

/**
 * Parsers for the command line: durations ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h};
 * a bare number is seconds) and byte sizes ({@code 20KiB}, {@code 20k}, {@code 1MiB}; K and M
 * are powers of 1024). Thread-safety: stateless.
 */
public final class Units {

    private Units() {
    }

    public static Duration duration(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2).trim()));
            }
            char unit = s.charAt(s.length() - 1);
            double n = Double.parseDouble(Character.isDigit(unit) ? s : s.substring(0, s.length() - 1).trim());
            double seconds = switch (unit) {
                case 's' -> n;
                case 'm' -> n * 60;
                case 'h' -> n * 3600;
                default -> {
                    if (!Character.isDigit(unit)) {
                        throw new NumberFormatException();
                    }
                    yield n;
                }
            };
            return Duration.ofMillis(Math.round(seconds * 1000));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (examples: 500ms, 30s, 5m, 1h)");
        }
    }

    public static int bytes(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT).replace("ib", "").replace("b", "");
        try {
            long multiplier = 1;
            if (s.endsWith("k")) {
                multiplier = 1024;
                s = s.substring(0, s.length() - 1);
            } else if (s.endsWith("m")) {
                multiplier = 1024 * 1024;
                s = s.substring(0, s.length() - 1);
            }
            return Math.toIntExact(Math.round(Double.parseDouble(s.trim()) * multiplier));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a size: '" + text + "' (examples: 20KiB, 50k, 1MiB, 4096)");
        }
    }

    /** picocli converter for durations. */
    public static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return duration(value);
        }
    }

    /** picocli converter for byte sizes. */
    public static final class BytesConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return bytes(value);
        }
    }
}
