package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void writesAParseableFlatObject() throws Exception {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("count", 12L);
        fields.put("rate", 1.5);
        fields.put("whole", 3.0);
        fields.put("nan", Double.NaN);
        fields.put("inf", Double.POSITIVE_INFINITY);
        fields.put("none", null);
        fields.put("flag", true);
        fields.put("text", "a \"quoted\"\\ line\n\t\u0001");
        String line = Json.object(fields);
        assertTrue(!line.contains("\n"), line);
        JsonNode node = new ObjectMapper().readTree(line);
        assertEquals(12, node.get("count").asLong());
        assertEquals(1.5, node.get("rate").asDouble());
        assertEquals(3, node.get("whole").asLong());
        assertTrue(node.get("nan").isNull());
        assertTrue(node.get("inf").isNull());
        assertTrue(node.get("none").isNull());
        assertTrue(node.get("flag").asBoolean());
        assertEquals("a \"quoted\"\\ line\n\t\u0001", node.get("text").asText());
    }

    /** The exact bytes the report and compare commands and earlier result files expect. */
    @Test
    void writesTheSameBytesAsBefore() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("count", 12L);
        fields.put("cores", 2);
        fields.put("rate", 1.5);
        fields.put("small", 0.001);
        fields.put("whole", 3.0);
        fields.put("negative_whole", -7.0);
        fields.put("huge", 1e20);
        fields.put("float", 2.5f);
        fields.put("nan", Double.NaN);
        fields.put("inf", Double.NEGATIVE_INFINITY);
        fields.put("none", null);
        fields.put("flag", false);
        fields.put("text", "a \"quoted\"\\ line\n\r\t\u0001 é");
        fields.put("enum", java.time.DayOfWeek.MONDAY);
        assertEquals("{\"count\":12,\"cores\":2,\"rate\":1.5,\"small\":0.001,\"whole\":3,\"negative_whole\":-7,"
                + "\"huge\":1.0E20,\"float\":2.5,\"nan\":null,\"inf\":null,\"none\":null,\"flag\":false,"
                + "\"text\":\"a \\\"quoted\\\"\\\\ line\\n\\r\\t\\u0001 é\",\"enum\":\"MONDAY\"}", Json.object(fields));
    }
}
