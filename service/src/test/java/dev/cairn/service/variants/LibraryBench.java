package dev.cairn.service.variants;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * The imaging libraries side by side, not a test: decode, resize to 320 pixels wide and encode
 * (JPEG and WebP) the same photo-like JPEGs of about 20 KiB and 300 KiB, one thread, with
 * ImageIO (WebP through libwebp, which ImageIO cannot write) and with libvips. Prints
 * {@code library source output renders_per_s p99_ms cpu_ms_per_render} lines (median of ROUNDS).
 * usage: LibraryBench ROUNDS; {@code LibraryBench write DIR BYTES COUNT} writes COUNT such JPEGs of
 * about BYTES (or of WxH pixels) as DIR/0.jpg, DIR/1.jpg, ...
 */
public final class LibraryBench {
    private LibraryBench() {
    }

    interface Vips extends Library {
        int vips_init(String argv0);

        int vips_thumbnail_buffer(Pointer buf, long len, PointerByReference out, int width, Object... args);

        int vips_image_write_to_buffer(Pointer image, String suffix, PointerByReference buf, LongByReference len, Object... args);

        void g_object_unref(Pointer object);

        void g_free(Pointer mem);

        String vips_error_buffer();

        void vips_concurrency_set(int concurrency);

        void vips_cache_set_max(int max);
    }

    interface WebP extends Library {
        long WebPEncodeBGR(Pointer bgr, int width, int height, int stride, float quality, PointerByReference out);

        void WebPFree(Pointer mem);
    }

    interface Render {
        byte[] render(byte[] jpeg) throws IOException;
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("write")) {
            java.nio.file.Path dir = java.nio.file.Files.createDirectories(java.nio.file.Path.of(args[1]));
            List<byte[]> images = new ArrayList<>();
            if (args[2].contains("x")) {
                String[] wh = args[2].split("x");
                for (int i = 0; i < Integer.parseInt(args[3]); i++) {
                    images.add(photo(Integer.parseInt(wh[0]), Integer.parseInt(wh[1]), i));
                }
            } else {
                images = sources(Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            }
            for (int i = 0; i < images.size(); i++) {
                java.nio.file.Files.write(dir.resolve(i + ".jpg"), images.get(i));
            }
            return;
        }
        int rounds = Integer.parseInt(args[0]);
        Vips vips = Native.load("vips", Vips.class);
        if (vips.vips_init("bench") != 0) {
            throw new IllegalStateException("vips_init failed");
        }
        WebP webp = Native.load("webp", WebP.class);
        for (int target : new int[] {20 * 1024, 300 * 1024}) {
            List<byte[]> sources = sources(target, 12);
            String label = (target / 1024) + "KiB";
            run("imageio", label, "jpeg", sources, rounds, src -> imageIoJpeg(resize(src)));
            run("imageio+libwebp", label, "webp", sources, rounds, src -> libwebp(webp, resize(src)));
            run("libvips", label, "jpeg", sources, rounds, src -> vips(vips, src, ".jpg[Q=80,strip]"));
            run("libvips", label, "webp", sources, rounds, src -> vips(vips, src, ".webp[Q=80,strip]"));
        }
    }

    static void run(String lib, String label, String out, List<byte[]> sources, int rounds, Render r) throws IOException {
        for (byte[] s : sources) {
            r.render(s);
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double[] rates = new double[rounds];
        double[] cpu = new double[rounds];
        List<Long> lat = new ArrayList<>();
        int perRound = Math.max(sources.size(), 60);
        for (int i = 0; i < rounds; i++) {
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            for (int n = 0; n < perRound; n++) {
                long a = System.nanoTime();
                r.render(sources.get(n % sources.size()));
                lat.add(System.nanoTime() - a);
            }
            rates[i] = perRound / ((System.nanoTime() - t0) / 1e9);
            cpu[i] = (os.getProcessCpuTime() - cpu0) / 1e6 / perRound;
        }
        Arrays.sort(rates);
        Arrays.sort(cpu);
        long[] l = lat.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf(Locale.ROOT, "%s %s %s %.1f %.2f %.2f%n", lib, label, out, rates[rounds / 2],
                l[(int) Math.min(l.length - 1, Math.ceil(l.length * 0.99) - 1)] / 1e6, cpu[rounds / 2]);
    }

    static byte[] vips(Vips v, byte[] src, String suffix) {
        Memory in = new Memory(src.length);
        in.write(0, src, 0, src.length);
        PointerByReference img = new PointerByReference();
        if (v.vips_thumbnail_buffer(in, src.length, img, 320, (Object) null) != 0) {
            throw new IllegalStateException(v.vips_error_buffer());
        }
        try {
            PointerByReference buf = new PointerByReference();
            LongByReference len = new LongByReference();
            if (v.vips_image_write_to_buffer(img.getValue(), suffix, buf, len, (Object) null) != 0) {
                throw new IllegalStateException(v.vips_error_buffer());
            }
            byte[] out = buf.getValue().getByteArray(0, (int) len.getValue());
            v.g_free(buf.getValue());
            return out;
        } finally {
            v.g_object_unref(img.getValue());
        }
    }

    static BufferedImage resize(byte[] jpeg) throws IOException {
        try (ImageInputStream iis = ImageIO.createImageInputStream(new ByteArrayInputStream(jpeg))) {
            Iterator<ImageReader> it = ImageIO.getImageReaders(iis);
            ImageReader reader = it.next();
            try {
                reader.setInput(iis, true, true);
                int w = reader.getWidth(0);
                ImageReadParam p = reader.getDefaultReadParam();
                int step = Math.max(1, w / (320 * 2));
                p.setSourceSubsampling(step, step, 0, 0);
                BufferedImage src = reader.read(0, p);
                int h = (int) Math.round((double) src.getHeight() * 320 / src.getWidth());
                BufferedImage out = new BufferedImage(320, h, BufferedImage.TYPE_3BYTE_BGR);
                Graphics2D g = out.createGraphics();
                g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
                g.drawImage(src, 0, 0, 320, h, null);
                g.dispose();
                return out;
            } finally {
                reader.dispose();
            }
        }
    }

    static byte[] imageIoJpeg(BufferedImage img) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            ImageWriteParam p = writer.getDefaultWriteParam();
            p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            p.setCompressionQuality(0.8f);
            writer.write(null, new IIOImage(img, null, null), p);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    static byte[] libwebp(WebP w, BufferedImage img) {
        byte[] bgr = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
        Memory in = new Memory(bgr.length);
        in.write(0, bgr, 0, bgr.length);
        PointerByReference out = new PointerByReference();
        long n = w.WebPEncodeBGR(in, img.getWidth(), img.getHeight(), img.getWidth() * 3, 80f, out);
        byte[] b = out.getValue().getByteArray(0, (int) n);
        w.WebPFree(out.getValue());
        return b;
    }

    /** {@code count} distinct photo-like JPEGs of about {@code bytes} each. */
    static List<byte[]> sources(int bytes, int count) throws IOException {
        int w = 200;
        byte[] probe = photo(w, w * 3 / 4, 0);
        while (probe.length < bytes) {
            w = (int) (w * 1.2);
            probe = photo(w, w * 3 / 4, 0);
        }
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(photo(w, w * 3 / 4, i));
        }
        System.err.printf(Locale.ROOT, "# sources of ~%d KiB: %dx%d, %d bytes%n", bytes / 1024, w, w * 3 / 4, out.get(0).length);
        return out;
    }

    static byte[] photo(int w, int h, long seed) throws IOException {
        Random random = new Random(seed);
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setPaint(new GradientPaint(0, 0, new Color(random.nextInt(0xFFFFFF)), w, h, new Color(random.nextInt(0xFFFFFF))));
        g.fillRect(0, 0, w, h);
        for (int i = 0; i < 30; i++) {
            g.setColor(new Color(random.nextInt(0xFFFFFF)));
            g.fillOval(random.nextInt(w), random.nextInt(h), 20 + random.nextInt(w / 4), 20 + random.nextInt(h / 4));
        }
        g.dispose();
        for (int y = 0; y < h; y += 3) {
            for (int x = 0; x < w; x += 3) {
                int rgb = img.getRGB(x, y);
                int d = random.nextInt(24) - 12;
                img.setRGB(x, y, (c((rgb >> 16 & 255) + d) << 16) | (c((rgb >> 8 & 255) + d) << 8) | c((rgb & 255) + d));
            }
        }
        return imageIoJpeg(img);
    }

    private static int c(int v) {
        return Math.max(0, Math.min(255, v));
    }
}
