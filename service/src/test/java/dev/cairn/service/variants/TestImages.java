package dev.cairn.service.variants;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriter;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.metadata.IIOMetadataNode;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/** Small images made in the test: two colour halves, so that crops and rotations show. */
final class TestImages {
    static final Color RED = new Color(220, 20, 20);
    static final Color BLUE = new Color(20, 20, 220);

    private TestImages() {
    }

    /** {@code w} × {@code h}, left half red, right half blue. */
    static BufferedImage halves(int w, int h, int type) {
        BufferedImage img = new BufferedImage(w, h, type);
        Graphics2D g = img.createGraphics();
        g.setColor(RED);
        g.fillRect(0, 0, w / 2, h);
        g.setColor(BLUE);
        g.fillRect(w / 2, 0, w - w / 2, h);
        g.dispose();
        return img;
    }

    static byte[] encode(BufferedImage img, String format) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (!ImageIO.write(img, format, out)) {
            throw new IOException("no writer for " + format);
        }
        return out.toByteArray();
    }

    static byte[] jpeg(int w, int h) throws IOException {
        return encode(halves(w, h, BufferedImage.TYPE_INT_RGB), "jpeg");
    }

    /**
     * A JPEG whose EXIF says orientation {@code orientation}: an APP1 segment (big-endian TIFF,
     * one IFD entry, tag 0x0112) put right after the start-of-image marker.
     */
    static byte[] jpegWithOrientation(int w, int h, int orientation) throws IOException {
        byte[] jpeg = jpeg(w, h);
        byte[] tiff = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, (byte) orientation, 0, 0,
            0, 0, 0, 0};
        byte[] exif = {'E', 'x', 'i', 'f', 0, 0};
        int len = 2 + exif.length + tiff.length;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, 2);
        out.write(new byte[] {(byte) 0xFF, (byte) 0xE1, (byte) (len >> 8), (byte) len});
        out.write(exif);
        out.write(tiff);
        out.write(jpeg, 2, jpeg.length - 2);
        return out.toByteArray();
    }

    /** A GIF of two frames. */
    static byte[] animatedGif(int w, int h) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("gif").next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            writer.prepareWriteSequence(null);
            for (int i = 0; i < 2; i++) {
                BufferedImage frame = halves(w, h, BufferedImage.TYPE_BYTE_INDEXED);
                IIOMetadata meta = writer.getDefaultImageMetadata(ImageTypeSpecifier.createFromRenderedImage(frame), null);
                IIOMetadataNode root = (IIOMetadataNode) meta.getAsTree(meta.getNativeMetadataFormatName());
                IIOMetadataNode gce = new IIOMetadataNode("GraphicControlExtension");
                gce.setAttribute("disposalMethod", "none");
                gce.setAttribute("userInputFlag", "FALSE");
                gce.setAttribute("transparentColorFlag", "FALSE");
                gce.setAttribute("delayTime", "10");
                gce.setAttribute("transparentColorIndex", "0");
                root.appendChild(gce);
                meta.mergeTree(meta.getNativeMetadataFormatName(), root);
                writer.writeToSequence(new IIOImage(frame, null, meta), null);
            }
            writer.endWriteSequence();
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    /** A PNG header declaring {@code w} × {@code h} pixels, with a tiny compressed body: a decompression bomb's shape. */
    static byte[] pngDeclaring(int w, int h) throws IOException {
        byte[] small = encode(halves(8, 8, BufferedImage.TYPE_INT_RGB), "png");
        // IHDR's width and height are bytes 16..23, its CRC bytes 29..32.
        byte[] png = small.clone();
        for (int i = 0; i < 4; i++) {
            png[16 + i] = (byte) (w >>> (24 - 8 * i));
            png[20 + i] = (byte) (h >>> (24 - 8 * i));
        }
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(png, 12, 17);
        long c = crc.getValue();
        for (int i = 0; i < 4; i++) {
            png[29 + i] = (byte) (c >>> (24 - 8 * i));
        }
        return png;
    }

    static BufferedImage decode(byte[] image) throws IOException {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(image));
        if (img == null) {
            throw new IOException("not decodable by ImageIO");
        }
        return img;
    }

    /** Whether the pixel at (x, y) is within {@code tolerance} of {@code c} in each channel. */
    static boolean near(BufferedImage img, int x, int y, Color c, int tolerance) {
        int rgb = img.getRGB(x, y);
        return Math.abs((rgb >> 16 & 255) - c.getRed()) <= tolerance && Math.abs((rgb >> 8 & 255) - c.getGreen()) <= tolerance
                && Math.abs((rgb & 255) - c.getBlue()) <= tolerance;
    }
}
