package dev.cairn.service.variants;

/** imgix's {@code fit}: how the source meets the box of {@code w} × {@code h}. */
enum Fit {
    /** Fills the box exactly, the overflow cut off at the {@code crop} gravity. */
    CROP,
    /** Fits inside the box, keeping the aspect ratio, enlarging if need be (imgix's default). */
    CLIP,
    /** As clip, never larger than the source. */
    MAX,
    /** Fits inside the box, the rest of the box filled white. */
    FILL
}
