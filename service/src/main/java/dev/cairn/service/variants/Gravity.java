package dev.cairn.service.variants;

/** imgix's {@code crop}: which part of the source a cropped variant keeps; {@code faces} is taken as the centre. */
enum Gravity {
    CENTER, TOP, BOTTOM, LEFT, RIGHT;

    boolean vertical() {
        return this == TOP || this == BOTTOM;
    }

    boolean low() {
        return this == TOP || this == LEFT;
    }
}
