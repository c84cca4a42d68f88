package dev.cairn.service.variants;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.lang.ref.Reference;

/**
 * Renders variants with libvips: the header is read first ({@link #probe}) so that a source of
 * too many pixels costs no decode; then one {@code vips_thumbnail} decodes (JPEGs shrunk while
 * decoding), applies the EXIF orientation, converts an embedded colour profile to sRGB and
 * resizes, streaming in bounded memory, and the saver writes the format without metadata.
 * Thread-safe; callers bound how many render at once.
 */
final class VipsRenderer {
    /** libvips's "no bound" for a thumbnail axis. */
    private static final int UNBOUNDED = 10_000_000;
    private static final double[] WHITE = {255, 255, 255};

    private final LibVips vips = Vips.lib();

    /** The source's header; InvalidImage when it is no image libvips reads. */
    SourceImage probe(Memory src) throws RenderRefused {
        String loader = vips.vips_foreign_find_load_buffer(src, src.size());
        if (loader == null) {
            vips.vips_error_clear();
            throw RenderRefused.invalidImage("the object is not an image of a format Cairn renders");
        }
        Pointer image = vips.vips_image_new_from_buffer(src, src.size(), "", (Object) null);
        if (image == null) {
            throw RenderRefused.invalidImage("the image's header could not be read: " + error());
        }
        try {
            int w = vips.vips_image_get_width(image);
            int h = vips.vips_image_get_height(image);
            IntByReference orientation = new IntByReference();
            if (vips.vips_image_get_int(image, "orientation", orientation) == 0 && orientation.getValue() >= 5) {
                int t = w;
                w = h;
                h = t;
            } else {
                vips.vips_error_clear();
            }
            return new SourceImage(loader, w, h, vips.vips_image_get_n_pages(image));
        } finally {
            vips.g_object_unref(image);
            Reference.reachabilityFence(src);
        }
    }

    /** The variant of {@code src} (probed as {@code image}) with {@code o}, written as {@code format}. */
    byte[] render(Memory src, SourceImage image, VariantOptions o, OutputFormat format) throws RenderRefused {
        int w = o.width();
        int h = o.height();
        boolean both = w > 0 && h > 0;
        if (w == 0 && h == 0) {
            w = image.width();
            h = image.height();
        }
        int size = o.fit() == Fit.MAX || (w == image.width() && h == image.height() && o.width() == 0)
                ? LibVips.VIPS_SIZE_DOWN : LibVips.VIPS_SIZE_BOTH;
        int crop = both && o.fit() == Fit.CROP ? interesting(image, w, h, o) : 0;
        PointerByReference out = new PointerByReference();
        if (vips.vips_thumbnail_buffer(src, src.size(), out, w == 0 ? UNBOUNDED : w,
                "height", h == 0 ? UNBOUNDED : h, "size", size, "crop", crop,
                "option_string", LibVips.FAIL_ON_TRUNCATED, null) != 0) {
            Reference.reachabilityFence(src);
            throw RenderRefused.invalidImage("the image could not be decoded: " + error());
        }
        Pointer img = out.getValue();
        try {
            if (both && o.fit() == Fit.FILL) {
                img = step(img, vips.vips_gravity(img, out, LibVips.VIPS_COMPASS_DIRECTION_CENTRE, w, h,
                        "extend", LibVips.VIPS_EXTEND_WHITE, null), out);
            }
            if (format == OutputFormat.JPG && vips.vips_image_hasalpha(img) != 0) {
                Pointer white = vips.vips_array_double_new(WHITE, WHITE.length);
                try {
                    img = step(img, vips.vips_flatten(img, out, "background", white, null), out);
                } finally {
                    vips.vips_area_unref(white);
                }
            }
            return save(img, format, o.quality());
        } finally {
            vips.g_object_unref(img);
            Reference.reachabilityFence(src);
        }
    }

    /** The next image of a pipeline, the previous one released; InvalidImage when the step failed. */
    private Pointer step(Pointer previous, int result, PointerByReference out) throws RenderRefused {
        if (result != 0) {
            throw RenderRefused.invalidImage("the image could not be rendered: " + error());
        }
        vips.g_object_unref(previous);
        return out.getValue();
    }

    private byte[] save(Pointer img, OutputFormat format, int quality) throws RenderRefused {
        PointerByReference buf = new PointerByReference();
        LongByReference len = new LongByReference();
        int rc = format == OutputFormat.PNG
                ? vips.vips_image_write_to_buffer(img, format.suffix, buf, len, "strip", 1, null)
                : vips.vips_image_write_to_buffer(img, format.suffix, buf, len, "Q", Math.max(1, quality), "strip", 1, null);
        if (rc != 0) {
            // The pipeline is lazy: a damaged source fails here, while its pixels are decoded.
            throw RenderRefused.invalidImage("the image could not be rendered: " + error());
        }
        try {
            return buf.getValue().getByteArray(0, (int) len.getValue());
        } finally {
            vips.g_free(buf.getValue());
        }
    }

    /**
     * libvips crops at the centre, or at the low or high end of whichever axis overflows the box;
     * imgix's gravity names the axis, so it is applied only when that axis is the one cut.
     */
    private static int interesting(SourceImage image, int w, int h, VariantOptions o) {
        boolean cutsVertically = (double) image.width() / image.height() < (double) w / h;
        Gravity g = cutsVertically ? o.vertical() : o.horizontal();
        return g == Gravity.CENTER ? LibVips.VIPS_INTERESTING_CENTRE
                : g.low() ? LibVips.VIPS_INTERESTING_LOW : LibVips.VIPS_INTERESTING_HIGH;
    }

    private String error() {
        String message = vips.vips_error_buffer();
        vips.vips_error_clear();
        return message == null ? "" : message.strip().replace('\n', ';');
    }
}
