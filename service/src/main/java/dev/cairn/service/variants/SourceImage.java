package dev.cairn.service.variants;

/**
 * What a source's header says, read before any pixel is decoded: libvips's loader (its format),
 * its size as displayed (EXIF orientation applied) and its number of frames.
 */
record SourceImage(String loader, int width, int height, int pages) {
    long pixels() {
        return (long) width * height;
    }
}
