package dev.cairn.engine.row;

import dev.cairn.engine.ColumnValue;

/**
 * One column of a typed schema: its name, its type and, for {@link ColumnValue.Type#FIXED}, its
 * width (0 otherwise). The type codes are on-disk (docs/format/schema-catalogue.md).
 */
record ColumnSpec(String name, ColumnValue.Type type, int width) {
    /** DO NOT CHANGE: embedded in on-disk data. */
    static final byte CODE_BYTES = 1;
    /** DO NOT CHANGE: embedded in on-disk data. */
    static final byte CODE_UINT = 2;
    /** DO NOT CHANGE: embedded in on-disk data. */
    static final byte CODE_FIXED = 3;
    /** DO NOT CHANGE: embedded in on-disk data. */
    static final byte CODE_SEPARATED = 4;

    public ColumnSpec {
        if ((type == ColumnValue.Type.FIXED) != (width > 0) || width > ColumnValue.MAX_FIXED_WIDTH) {
            throw new IllegalArgumentException("column '" + name + "' of type " + type + " with width " + width);
        }
    }

    static ColumnSpec of(String name, ColumnValue value) {
        return new ColumnSpec(name, value.type(), value.type() == ColumnValue.Type.FIXED ? value.length() : 0);
    }

    byte code() {
        return code(type);
    }

    static byte code(ColumnValue.Type type) {
        return switch (type) {
            case BYTES -> CODE_BYTES;
            case UINT -> CODE_UINT;
            case FIXED -> CODE_FIXED;
            case SEPARATED -> CODE_SEPARATED;
        };
    }

    /** The type of {@code code}; throws {@link IllegalArgumentException} for an unknown one. */
    static ColumnValue.Type type(int code) {
        return switch (code) {
            case CODE_BYTES -> ColumnValue.Type.BYTES;
            case CODE_UINT -> ColumnValue.Type.UINT;
            case CODE_FIXED -> ColumnValue.Type.FIXED;
            case CODE_SEPARATED -> ColumnValue.Type.SEPARATED;
            default -> throw new IllegalArgumentException("unknown column type " + code);
        };
    }

    @Override
    public String toString() {
        return name + ":" + (type == ColumnValue.Type.FIXED ? "fixed" + width : type.name().toLowerCase());
    }
}
