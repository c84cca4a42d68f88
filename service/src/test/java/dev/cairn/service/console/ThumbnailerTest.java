package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import javax.imageio.ImageIO;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ThumbnailerTest {
    private final Thumbnailer thumbnailer = new Thumbnailer(64_000_000L);

    static byte[] image(String format, int w, int h) throws IOException {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(new Color(200, 40, 40));
        g.fillRect(0, 0, w, h);
        g.setColor(Color.BLUE);
        g.fillRect(0, 0, w / 2, h / 2);
        g.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTrue(ImageIO.write(img, format, out));
        return out.toByteArray();
    }

    static BufferedImage decode(byte[] jpeg) throws IOException {
        assertEquals((byte) 0xFF, jpeg[0]);
        assertEquals((byte) 0xD8, jpeg[1]);
        return ImageIO.read(new ByteArrayInputStream(jpeg));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jpeg", "png", "gif"})
    void makesAJpegThatFitsTheSizeKeepingTheAspect(String format) throws Exception {
        BufferedImage t = decode(thumbnailer.thumbnail(new ByteArrayInputStream(image(format, 1200, 600)), 256));
        assertEquals(256, t.getWidth());
        assertEquals(128, t.getHeight());
        // The top-left quarter was blue, the rest red.
        Color topLeft = new Color(t.getRGB(10, 10));
        Color bottomRight = new Color(t.getRGB(250, 120));
        assertTrue(topLeft.getBlue() > 150 && topLeft.getRed() < 100, "blue corner: " + topLeft);
        assertTrue(bottomRight.getRed() > 150 && bottomRight.getBlue() < 100, "red corner: " + bottomRight);
    }

    @Test
    void smallImagesAreNotEnlarged() throws Exception {
        BufferedImage t = decode(thumbnailer.thumbnail(new ByteArrayInputStream(image("png", 40, 30)), 256));
        assertEquals(40, t.getWidth());
        assertEquals(30, t.getHeight());
    }

    @ParameterizedTest
    @ValueSource(strings = {"lossy.webp", "lossless.webp"})
    void readsWebp(String name) throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/console/" + name)) {
            BufferedImage t = decode(thumbnailer.thumbnail(in, 128));
            assertEquals(48, t.getWidth());
            assertEquals(48, t.getHeight());
        }
    }

    @Test
    void refusesADecompressionBombFromItsHeaderAlone() throws Exception {
        byte[] bomb = withDeclaredSize(image("png", 16, 16), 100_000, 100_000);
        long start = System.nanoTime();
        Thumbnailer.Refused r = assertThrows(Thumbnailer.Refused.class,
                () -> thumbnailer.thumbnail(new ByteArrayInputStream(bomb), 256));
        assertTrue(r.getMessage().contains("100000x100000"), r.getMessage());
        // Decoding 10^10 pixels would take many minutes and 40 GB; the header read takes nothing,
        // and half a minute leaves a loaded machine room.
        assertTrue(System.nanoTime() - start < 30_000_000_000L);
    }

    @Test
    void refusesWhatIsNoImageOrIsDamaged() throws Exception {
        assertThrows(Thumbnailer.Refused.class,
                () -> thumbnailer.thumbnail(new ByteArrayInputStream("<svg xmlns='http://www.w3.org/2000/svg'/>".getBytes()), 256));
        byte[] png = image("png", 300, 300);
        byte[] cut = java.util.Arrays.copyOf(png, 60);
        assertThrows(Exception.class, () -> thumbnailer.thumbnail(new ByteArrayInputStream(cut), 256));
    }

    /** The PNG with its IHDR's width and height replaced (and the chunk's CRC fixed). */
    static byte[] withDeclaredSize(byte[] png, int width, int height) {
        byte[] out = png.clone();
        ByteBuffer b = ByteBuffer.wrap(out);
        // Signature (8), IHDR length (4), "IHDR" (4), then width and height.
        b.putInt(16, width);
        b.putInt(20, height);
        CRC32 crc = new CRC32();
        crc.update(out, 12, 4 + 13);
        b.putInt(12 + 4 + 13, (int) crc.getValue());
        return out;
    }
}
