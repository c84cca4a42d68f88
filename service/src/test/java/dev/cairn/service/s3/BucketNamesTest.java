package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BucketNamesTest {
    @Test
    void followsS3sRules() {
        for (String ok : new String[] {"abc", "my-bucket", "my.bucket.1", "a".repeat(63), "0ab"}) {
            assertTrue(BucketNames.isValid(ok), ok);
        }
        for (String bad : new String[] {"ab", "a".repeat(64), "Upper", "under_score", "-lead", "trail-", "a..b",
                "a.-b", "a-.b", "192.168.1.1", "xn--abc", "x-s3alias", "_cas", "actuator", "sp ace", "sthree-abc",
                "amzn-s3-demo-x", "abc--ol-s3", "abc.mrap", "abc--x-s3", "abc--table-s3"}) {
            assertFalse(BucketNames.isValid(bad), bad);
        }
    }
}
