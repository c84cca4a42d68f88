package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A query parsed again from what was kept reads exactly as parsed afresh, errors included. */
class ParsedQueriesTest {
    @Test
    void aKeptQueryIsTheFreshParse() throws S3Exception {
        String presigned = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AK%2F20260314%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20260314T150926Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=" + "a".repeat(64);
        for (String raw : List.of(presigned, "b=2&a=1&a=0&c", "x=a+b&y=%7e&z=%E2%82%AC", "&&acl", "list-type=2&prefix=p%2F")) {
            Map<String, String> first = ParsedQueries.parse(raw);
            Map<String, String> again = ParsedQueries.parse(new String(raw.toCharArray()));
            assertEquals(UrlCodec.parseQuery(raw), first, raw);
            assertEquals(List.copyOf(UrlCodec.parseQuery(raw).keySet()), List.copyOf(again.keySet()), raw);
            assertEquals(first, again);
            assertThrows(UnsupportedOperationException.class, () -> again.put("x", "y"));
        }
        assertEquals("AK/20260314/us-east-1/s3/aws4_request", ParsedQueries.parse(presigned).get("X-Amz-Credential"));
        assertTrue(ParsedQueries.parse(null).isEmpty());
        assertTrue(ParsedQueries.parse("").isEmpty());
    }

    @Test
    void aBadQueryIsRefusedEveryTimeAndLongOnesAreNotKept() throws S3Exception {
        for (int i = 0; i < 2; i++) {
            S3Exception e = assertThrows(S3Exception.class, () -> ParsedQueries.parse("a=%zz"));
            assertEquals("InvalidArgument", e.code());
        }
        String longQuery = "k=" + "v".repeat(ParsedQueries.MAX_LENGTH);
        assertEquals("v".repeat(ParsedQueries.MAX_LENGTH), ParsedQueries.parse(longQuery).get("k"));
        for (int i = 0; i < ParsedQueries.LIMIT + 10; i++) {
            ParsedQueries.parse("n=" + i);
            assertTrue(ParsedQueries.size() <= ParsedQueries.LIMIT);
        }
        assertSame(ParsedQueries.parse("n=1"), ParsedQueries.parse("n=1"));
    }

    @Test
    void queriesAlikeInLengthAndTailAreKeptApart() throws S3Exception {
        String tail = "&X-Amz-Signature=" + "b".repeat(64);
        String one = "X-Amz-Credential=AK%2Fone" + tail;
        String two = "X-Amz-Credential=AK%2Ftwo" + tail;
        assertEquals("AK/one", ParsedQueries.parse(one).get("X-Amz-Credential"));
        assertEquals("AK/two", ParsedQueries.parse(two).get("X-Amz-Credential"));
        assertEquals("AK/one", ParsedQueries.parse(new String(one.toCharArray())).get("X-Amz-Credential"));
        assertEquals("AK/two", ParsedQueries.parse(new String(two.toCharArray())).get("X-Amz-Credential"));
    }
}
