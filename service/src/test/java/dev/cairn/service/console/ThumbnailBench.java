package dev.cairn.service.console;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import javax.imageio.ImageIO;

/**
 * Thumbnail generation speed, not a test: {@code ThumbnailBench speed ROUNDS} makes 256-pixel
 * thumbnails of photo-like images of each format on one thread and prints images/s per format
 * (median of the rounds) as {@code format width height images_per_second} lines;
 * {@code ThumbnailBench write DIR COUNT SEED} writes COUNT distinct 1024×768 JPEGs for the
 * browse benchmark. Run by service/src/test/bench/console.sh.
 */
public final class ThumbnailBench {
    private ThumbnailBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("write")) {
            Path dir = Files.createDirectories(Path.of(args[1]));
            int count = Integer.parseInt(args[2]);
            long seed = Long.parseLong(args[3]);
            for (int i = 0; i < count; i++) {
                Files.write(dir.resolve(String.format("img-%04d.jpg", i)), photo("jpeg", 1024, 768, seed * 100_000 + i));
            }
            return;
        }
        int rounds = Integer.parseInt(args[1]);
        Thumbnailer t = new Thumbnailer(64_000_000L);
        Object[][] cases = {{"jpeg", 1600, 1200, 40}, {"jpeg", 4000, 3000, 8}, {"png", 1024, 768, 20}, {"gif", 800, 600, 30},
            {"webp", 48, 48, 200}};
        for (Object[] c : cases) {
            String format = (String) c[0];
            int w = (Integer) c[1];
            int h = (Integer) c[2];
            int n = (Integer) c[3];
            List<byte[]> images = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                images.add(format.equals("webp") ? webp() : photo(format, w, h, i));
            }
            for (byte[] img : images.subList(0, Math.min(3, n))) {
                t.thumbnail(new ByteArrayInputStream(img), 256); // warm-up
            }
            double[] rates = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                long start = System.nanoTime();
                for (byte[] img : images) {
                    t.thumbnail(new ByteArrayInputStream(img), 256);
                }
                rates[r] = n / ((System.nanoTime() - start) / 1e9);
            }
            Arrays.sort(rates);
            System.out.printf(Locale.ROOT, "%s %d %d %.1f%n", format, w, h, rates[rounds / 2]);
        }
    }

    private static byte[] webp() throws IOException {
        try (InputStream in = ThumbnailBench.class.getResourceAsStream("/console/lossy.webp")) {
            return in.readAllBytes();
        }
    }

    /** A photo-like image: gradients, shapes and noise, so it compresses as photos do. */
    static byte[] photo(String format, int w, int h, long seed) throws IOException {
        Random random = new Random(seed);
        BufferedImage img = new BufferedImage(w, h, format.equals("gif") ? BufferedImage.TYPE_BYTE_INDEXED
                : BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setPaint(new java.awt.GradientPaint(0, 0, new Color(random.nextInt(0xFFFFFF)), w, h,
                new Color(random.nextInt(0xFFFFFF))));
        g.fillRect(0, 0, w, h);
        for (int i = 0; i < 30; i++) {
            g.setColor(new Color(random.nextInt(0xFFFFFF)));
            g.fillOval(random.nextInt(w), random.nextInt(h), 20 + random.nextInt(w / 4), 20 + random.nextInt(h / 4));
        }
        g.dispose();
        if (!format.equals("gif")) {
            for (int y = 0; y < h; y += 2) {
                for (int x = 0; x < w; x += 2) {
                    int rgb = img.getRGB(x, y);
                    int d = random.nextInt(24) - 12;
                    int r = clamp(((rgb >> 16) & 255) + d);
                    int gr = clamp(((rgb >> 8) & 255) + d);
                    int b = clamp((rgb & 255) + d);
                    img.setRGB(x, y, (r << 16) | (gr << 8) | b);
                }
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, format, out);
        return out.toByteArray();
    }

    private static int clamp(int v) {
        return Math.max(0, Math.min(255, v));
    }
}
