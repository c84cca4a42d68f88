package dev.cairn.service.variants;

import com.sun.jna.Native;

/**
 * libvips, loaded and set up once per process: one thread per render (the service bounds
 * renders, libvips should not multiply them), no operation cache (every render is of new
 * bytes; a cache would only hold memory), and where the library offers it (8.13 and later)
 * the loaders that are not fuzzed against hostile input switched off.
 */
final class Vips {
    private static volatile LibVips lib;

    private Vips() {
    }

    /** The library; IllegalStateException, saying so, when libvips is not installed. */
    static LibVips lib() {
        LibVips l = lib;
        if (l == null) {
            synchronized (Vips.class) {
                l = lib;
                if (l == null) {
                    l = load();
                    lib = l;
                }
            }
        }
        return l;
    }

    private static LibVips load() {
        LibVips l;
        try {
            l = Native.load("vips", LibVips.class);
        } catch (UnsatisfiedLinkError e) {
            throw new IllegalStateException("image variants need libvips (Debian and Ubuntu: apt-get install libvips42): "
                    + e.getMessage(), e);
        }
        if (l.vips_init("cairn") != 0) {
            throw new IllegalStateException("libvips did not start: " + l.vips_error_buffer());
        }
        l.vips_concurrency_set(1);
        l.vips_cache_set_max(0);
        try {
            com.sun.jna.NativeLibrary.getInstance("vips").getFunction("vips_block_untrusted_set").invoke(new Object[] {1});
        } catch (UnsatisfiedLinkError e) {
            // libvips before 8.13 has no untrusted flag; its loaders all stay on.
        }
        return l;
    }
}
