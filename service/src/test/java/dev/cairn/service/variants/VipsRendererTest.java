package dev.cairn.service.variants;

import static dev.cairn.service.variants.TestImages.BLUE;
import static dev.cairn.service.variants.TestImages.RED;
import static dev.cairn.service.variants.TestImages.near;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden images per option: dimensions, format, orientation, pixel values within a tolerance. */
class VipsRendererTest {
    private static final int TOLERANCE = 40;
    private final VipsRenderer renderer = new VipsRenderer();

    private byte[] render(byte[] source, String query) throws Exception {
        Map<String, String> params = new HashMap<>();
        for (String pair : query.split("&")) {
            if (!pair.isEmpty()) {
                String[] kv = pair.split("=", 2);
                params.put(kv[0], kv[1]);
            }
        }
        VariantOptions o = VariantOptions.parse(params::get, 4096);
        try (Memory src = memory(source)) {
            SourceImage image = renderer.probe(src);
            return renderer.render(src, image, o, o.format() != null ? o.format() : OutputFormat.ofLoader(image.loader()));
        }
    }

    private static Memory memory(byte[] bytes) {
        Memory m = new Memory(bytes.length);
        m.write(0, bytes, 0, bytes.length);
        return m;
    }

    @Test
    void widthAloneKeepsTheAspectRatioAndTheSourceFormat() throws Exception {
        BufferedImage out = TestImages.decode(render(TestImages.jpeg(400, 200), "w=100"));
        assertEquals(100, out.getWidth());
        assertEquals(50, out.getHeight());
        assertTrue(near(out, 10, 25, RED, TOLERANCE));
        assertTrue(near(out, 90, 25, BLUE, TOLERANCE));
    }

    @Test
    void clipEnlargesAndMaxDoesNot() throws Exception {
        byte[] src = TestImages.jpeg(400, 200);
        BufferedImage clip = TestImages.decode(render(src, "w=800&h=800&fit=clip"));
        assertEquals(800, clip.getWidth());
        assertEquals(400, clip.getHeight());
        BufferedImage max = TestImages.decode(render(src, "w=800&h=800&fit=max"));
        assertEquals(400, max.getWidth());
        assertEquals(200, max.getHeight());
    }

    @Test
    void cropFillsTheBoxAtItsGravity() throws Exception {
        byte[] src = TestImages.jpeg(400, 200);
        BufferedImage left = TestImages.decode(render(src, "w=100&h=100&fit=crop&crop=left"));
        assertEquals(100, left.getWidth());
        assertEquals(100, left.getHeight());
        assertTrue(near(left, 90, 50, RED, TOLERANCE), "the left crop is all red");
        BufferedImage right = TestImages.decode(render(src, "w=100&h=100&fit=crop&crop=right"));
        assertTrue(near(right, 10, 50, BLUE, TOLERANCE), "the right crop is all blue");
        BufferedImage centre = TestImages.decode(render(src, "w=100&h=100&fit=crop&crop=top"));
        assertTrue(near(centre, 10, 50, RED, TOLERANCE) && near(centre, 90, 50, BLUE, TOLERANCE),
                "top names the other axis: the horizontal cut stays centred");
    }

    @Test
    void fillLetterboxesInWhite() throws Exception {
        BufferedImage out = TestImages.decode(render(TestImages.jpeg(400, 200), "w=100&h=100&fit=fill&fm=png"));
        assertEquals(100, out.getWidth());
        assertEquals(100, out.getHeight());
        assertTrue(near(out, 50, 5, Color.WHITE, 8));
        assertTrue(near(out, 10, 50, RED, TOLERANCE));
    }

    @Test
    void dprMultipliesTheSize() throws Exception {
        BufferedImage out = TestImages.decode(render(TestImages.jpeg(400, 200), "w=100&dpr=2"));
        assertEquals(200, out.getWidth());
    }

    @Test
    void exifOrientationIsApplied() throws Exception {
        // Orientation 6: the stored image is shown turned 90° clockwise, its left half on top.
        byte[] src = TestImages.jpegWithOrientation(400, 200, 6);
        try (Memory m = memory(src)) {
            SourceImage image = renderer.probe(m);
            assertEquals(200, image.width());
            assertEquals(400, image.height());
        }
        BufferedImage out = TestImages.decode(render(src, "w=100"));
        assertEquals(100, out.getWidth());
        assertEquals(200, out.getHeight());
        assertTrue(near(out, 50, 20, RED, TOLERANCE));
        assertTrue(near(out, 50, 180, BLUE, TOLERANCE));
    }

    @Test
    void eachFormatIsWrittenAsAsked() throws Exception {
        byte[] src = TestImages.jpeg(400, 200);
        assertArrayEquals("RIFF".getBytes(), Arrays.copyOf(render(src, "w=64&fm=webp"), 4));
        byte[] png = render(src, "w=64&fm=png");
        assertEquals((byte) 0x89, png[0]);
        assertEquals("PNG", new String(png, 1, 3));
        byte[] jpg = render(TestImages.encode(TestImages.halves(40, 20, BufferedImage.TYPE_INT_ARGB), "png"), "w=64&fm=jpg");
        assertEquals((byte) 0xFF, jpg[0]);
        assertEquals((byte) 0xD8, jpg[1]);
        byte[] avif = render(src, "w=64&fm=avif");
        assertEquals("ftypavif", new String(avif, 4, 8));
        try (Memory m = memory(avif)) {
            assertEquals(64, renderer.probe(m).width());
        }
        BufferedImage webp = TestImages.decode(render(src, "w=64&fm=webp"));
        assertEquals(32, webp.getHeight());
        assertTrue(near(webp, 5, 16, RED, TOLERANCE));
    }

    @Test
    void metadataIsStripped() throws Exception {
        byte[] out = render(TestImages.jpegWithOrientation(400, 200, 6), "w=100&fm=jpg");
        assertTrue(indexOf(out, "Exif".getBytes()) < 0, "no EXIF in the variant");
    }

    @Test
    void badSourcesAreRefusedClearly() throws Exception {
        RenderRefused notImage = assertThrows(RenderRefused.class, () -> render("just some text".getBytes(), "w=10"));
        assertEquals("InvalidImage", notImage.code);
        byte[] jpeg = TestImages.jpeg(400, 200);
        RenderRefused truncated = assertThrows(RenderRefused.class,
                () -> render(Arrays.copyOf(jpeg, jpeg.length / 2), "w=10"));
        assertEquals("InvalidImage", truncated.code);
    }

    @Test
    void theHeaderTellsSizeAndFramesBeforeAnyDecode() throws Exception {
        try (Memory bomb = memory(TestImages.pngDeclaring(100_000, 100_000))) {
            SourceImage image = renderer.probe(bomb);
            assertEquals(10_000_000_000L, image.pixels());
        }
        try (Memory gif = memory(TestImages.animatedGif(40, 20))) {
            assertEquals(2, renderer.probe(gif).pages());
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
