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
}
