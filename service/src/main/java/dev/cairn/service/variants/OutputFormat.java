package dev.cairn.service.variants;

import java.util.Locale;

/** imgix's {@code fm}: the formats a variant is written in, with libvips's saver suffix. */
enum OutputFormat {
    JPG("image/jpeg", ".jpg"),
    PNG("image/png", ".png"),
    WEBP("image/webp", ".webp"),
    AVIF("image/avif", ".avif");

    final String contentType;
    final String suffix;

    OutputFormat(String contentType, String suffix) {
        this.contentType = contentType;
        this.suffix = suffix;
    }

    String param() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The format of an {@code fm} value; null for one Cairn does not write. */
    static OutputFormat ofParam(String fm) {
        return switch (fm.toLowerCase(Locale.ROOT)) {
            case "jpg", "jpeg", "pjpg" -> JPG;
            case "png" -> PNG;
            case "webp" -> WEBP;
            case "avif" -> AVIF;
            default -> null;
        };
    }

    /**
     * What a variant without {@code fm} is written in: the source's own format where Cairn writes
     * it, PNG for GIF (lossless, keeps transparency), JPEG otherwise. {@code loader} is libvips's
     * loader name, e.g. {@code pngload_buffer}.
     */
    static OutputFormat ofLoader(String loader) {
        if (loader.startsWith("png") || loader.startsWith("gif")) {
            return PNG;
        }
        if (loader.startsWith("webp")) {
            return WEBP;
        }
        return JPG;
    }
}
