package dev.cairn.service.variants;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The libvips calls variants make (libvips 8.12 and later, Debian's and Ubuntu's {@code libvips42}),
 * with the GLib ones libvips brings. Optional arguments are name–value pairs ending with a null,
 * as in C. Loaded by {@link Vips}.
 */
interface LibVips extends Library {
    int VIPS_SIZE_BOTH = 0;
    int VIPS_SIZE_DOWN = 2;
    int VIPS_INTERESTING_CENTRE = 1;
    int VIPS_INTERESTING_LOW = 4;
    int VIPS_INTERESTING_HIGH = 5;
    int VIPS_COMPASS_DIRECTION_CENTRE = 0;
    int VIPS_EXTEND_WHITE = 4;
    /** Loaders fail on a truncated file (VipsFailOn), not render its missing rows grey. */
    String FAIL_ON_TRUNCATED = "fail_on=truncated";

    int vips_init(String argv0);

    void vips_concurrency_set(int concurrency);

    void vips_cache_set_max(int max);

    String vips_foreign_find_load_buffer(Pointer data, long size);

    Pointer vips_image_new_from_buffer(Pointer data, long size, String options, Object... args);

    int vips_image_get_width(Pointer image);

    int vips_image_get_height(Pointer image);

    int vips_image_get_n_pages(Pointer image);

    int vips_image_get_int(Pointer image, String name, IntByReference out);

    int vips_image_hasalpha(Pointer image);

    int vips_thumbnail_buffer(Pointer data, long size, PointerByReference out, int width, Object... args);

    int vips_gravity(Pointer in, PointerByReference out, int direction, int width, int height, Object... args);

    int vips_flatten(Pointer in, PointerByReference out, Object... args);

    Pointer vips_array_double_new(double[] values, int n);

    void vips_area_unref(Pointer area);

    int vips_image_write_to_buffer(Pointer image, String suffix, PointerByReference buf, LongByReference size,
                                   Object... args);

    String vips_error_buffer();

    void vips_error_clear();

    void g_object_unref(Pointer object);

    void g_free(Pointer memory);
}
