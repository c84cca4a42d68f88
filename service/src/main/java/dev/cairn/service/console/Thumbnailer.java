package dev.cairn.service.console;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Makes a JPEG thumbnail of a JPEG, PNG, GIF (first frame) or WebP image with ImageIO. The
 * image's declared size is read from its header first, and an image of more pixels than the
 * bound is refused before any pixel is decoded (a decompression bomb costs a header read);
 * large images are decoded subsampled, so memory stays near the thumbnail's size, not the
 * image's. Stateless; thread-safe.
 */
public final class Thumbnailer {
    /** Formats thumbnailed, as ImageIO's readers name them (lower case). */
    static final Set<String> FORMATS = Set.of("jpeg", "png", "gif", "webp");
    private static final float QUALITY = 0.82f;

    static {
        // ImageIO looks for plugins (the WebP reader) once, through the class loader of its first
        // caller's thread; in the packaged service that is the application's own.
        ImageIO.scanForPlugins();
    }

    private final long maxPixels;

    public Thumbnailer(long maxPixels) {
        this.maxPixels = maxPixels;
    }

    /** Why an image got no thumbnail. */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** A JPEG at most {@code size} pixels wide and high, of the image {@code in} holds. */
    public byte[] thumbnail(InputStream in, int size) throws IOException, Refused {
        try (ImageInputStream iis = new MemoryCacheImageInputStream(in)) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(iis);
            if (!readers.hasNext()) {
                throw new Refused("not an image of a known format");
            }
            ImageReader reader = readers.next();
            try {
                String format = reader.getFormatName().toLowerCase(Locale.ROOT);
                if (!FORMATS.contains(format)) {
                    throw new Refused("no thumbnails of " + format);
                }
                reader.setInput(iis, true, true);
                int w = reader.getWidth(0);
                int h = reader.getHeight(0);
                if (w <= 0 || h <= 0 || (long) w * h > maxPixels) {
                    throw new Refused("image of " + w + "x" + h + " pixels exceeds the bound of " + maxPixels);
                }
                ImageReadParam param = reader.getDefaultReadParam();
                int step = Math.max(1, Math.max(w, h) / (size * 2));
                param.setSourceSubsampling(step, step, 0, 0);
                BufferedImage image = reader.read(0, param);
                return encode(scale(image, size));
            } catch (RuntimeException e) {
                // ImageIO's readers throw unchecked exceptions on damaged input.
                throw new Refused("the image could not be decoded: " + e);
            } finally {
                reader.dispose();
            }
        }
    }

    private static BufferedImage scale(BufferedImage src, int size) {
        double f = Math.min(1.0, (double) size / Math.max(src.getWidth(), src.getHeight()));
        int w = Math.max(1, (int) Math.round(src.getWidth() * f));
        int h = Math.max(1, (int) Math.round(src.getHeight() * f));
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, w, h);
            g.drawImage(src, 0, 0, w, h, null);
        } finally {
            g.dispose();
        }
        return out;
    }

    private static byte[] encode(BufferedImage image) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 * 1024);
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            ImageWriteParam p = writer.getDefaultWriteParam();
            p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            p.setCompressionQuality(QUALITY);
            writer.write(null, new IIOImage(image, null, null), p);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }
}
