package dev.cairn.service.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.s3.S3Exception;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VariantOptionsTest {
    private static VariantOptions parse(Map<String, String> p) throws S3Exception {
        return VariantOptions.parse(p::get, 2000);
    }

    @Test
    void equivalentRequestsNormaliseAlike() throws Exception {
        VariantOptions a = parse(Map.of("w", "320", "fm", "jpeg", "q", "75"));
        VariantOptions b = parse(Map.of("fm", "jpg", "w", "160", "dpr", "2", "fit", "clip"));
        assertEquals(a.normalised(a.format()), b.normalised(b.format()));
        assertEquals("w=320&h=0&fit=clip&q=75&fm=jpg", a.normalised(a.format()));
        assertEquals("w=0&h=0&fit=crop&crop=top,center&q=75&fm=source",
                parse(Map.of("fit", "crop", "crop", "faces,top")).normalised(null));
        assertTrue(parse(Map.of("auto", "compress,format")).autoFormat());
    }

    @Test
    void badOptionsAreRefusedByName() {
        Object[][] cases = {{Map.of("w", "0"), "w"}, {Map.of("w", "abc"), "w"}, {Map.of("w", "1500", "dpr", "2"), "w"},
            {Map.of("fit", "scale"), "fit"}, {Map.of("crop", "middle"), "crop"}, {Map.of("q", "101"), "q"},
            {Map.of("fm", "gif"), "fm"}, {Map.of("dpr", "9"), "dpr"}};
        for (Object[] c : cases) {
            @SuppressWarnings("unchecked")
            Map<String, String> bad = (Map<String, String>) c[0];
            S3Exception e = assertThrows(S3Exception.class, () -> parse(bad), bad.toString());
            assertEquals(400, e.status());
            assertTrue(e.getMessage().startsWith(c[1] + " "), e.getMessage());
        }
    }

    @Test
    void acceptChoosesAvifThenWebp() {
        assertEquals(OutputFormat.AVIF, VariantService.fromAccept("image/avif,image/webp,*/*"));
        assertEquals(OutputFormat.WEBP, VariantService.fromAccept("image/webp,*/*"));
        assertEquals(null, VariantService.fromAccept("*/*"));
    }
}
