package dev.cairn.loadtest.bench;

import java.util.Map;

/** Writes one flat JSON object on one line. Non-finite numbers become null. Thread-safety: stateless. */
final class Json {
    private Json() {
    }

    static String object(Map<String, ?> fields) {
        StringBuilder out = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, ?> field : fields.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, field.getKey());
            out.append(':');
            value(out, field.getValue());
        }
        return out.append('}').toString();
    }

    private static void value(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Double d) {
            if (Double.isFinite(d)) {
                out.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue()) : Double.toString(d));
            } else {
                out.append("null");
            }
        } else if (value instanceof Float f) {
            value(out, f.doubleValue());
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            string(out, value.toString());
        }
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
