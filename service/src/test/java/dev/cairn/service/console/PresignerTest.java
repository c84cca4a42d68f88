package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class PresignerTest {
    /** The presigned GET of the Signature V4 documentation's example (bucket examplebucket, key test.txt). */
    @Test
    void matchesThePublishedExample() {
        String url = new Presigner("us-east-1").presignGet("https://examplebucket.s3.amazonaws.com",
                "examplebucket.s3.amazonaws.com", "/test.txt", "AKIAIOSFODNN7EXAMPLE",
                "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", 86400, Instant.parse("2013-05-24T00:00:00Z"));
        assertEquals("https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404", url);
    }

    @Test
    void expiryIsBoundedToSevenDays() {
        Presigner p = new Presigner("us-east-1");
        assertThrows(IllegalArgumentException.class, () -> p.presignGet("http://h", "h", "/b/k", "a", "s", 0, Instant.now()));
        assertThrows(IllegalArgumentException.class,
                () -> p.presignGet("http://h", "h", "/b/k", "a", "s", 7 * 24 * 3600 + 1, Instant.now()));
    }
}
