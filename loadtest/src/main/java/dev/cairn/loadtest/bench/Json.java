package dev.cairn.loadtest.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes one JSON object on one line, with Jackson's streaming writer; values may be maps and
 * lists (as objects and arrays) besides scalars. A whole double below
 * 10^15 is written as an integer and a non-finite one as null, so the benchmarks' JSON lines stay
 * as they were. Thread-safety: stateless.
 */
final class Json {
    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {
    }

    static String object(Map<String, ?> fields) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.writeStartObject();
            for (Map.Entry<String, ?> field : fields.entrySet()) {
                json.writeFieldName(field.getKey());
                value(json, field.getValue());
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void value(JsonGenerator json, Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                json.writeNull();
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                json.writeNumber((long) d);
            } else {
                json.writeNumber(d);
            }
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            json.writeNumber(((Number) value).longValue());
        } else if (value instanceof Number) {
            json.writeNumber(value.toString());
        } else if (value instanceof Boolean b) {
            json.writeBoolean(b);
        } else if (value instanceof Map<?, ?> map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> field : map.entrySet()) {
                json.writeFieldName(field.getKey().toString());
                value(json, field.getValue());
            }
            json.writeEndObject();
        } else if (value instanceof Iterable<?> list) {
            json.writeStartArray();
            for (Object element : list) {
                value(json, element);
            }
            json.writeEndArray();
        } else {
            json.writeString(value.toString());
        }
    }
}
