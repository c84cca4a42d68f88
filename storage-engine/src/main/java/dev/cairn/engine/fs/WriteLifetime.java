package dev.cairn.engine.fs;

/**
 * How long the bytes of a file are expected to live, passed to the kernel as
 * {@code fcntl(F_SET_RW_HINT)} where supported. DO NOT CHANGE the codes: they are the kernel's
 * {@code RWH_WRITE_LIFE_*} values.
 */
public enum WriteLifetime {
    NOT_SET(0),
    NONE(1),
    SHORT(2),
    MEDIUM(3),
    LONG(4),
    EXTREME(5);

    private final int kernelCode;

    WriteLifetime(int kernelCode) {
        this.kernelCode = kernelCode;
    }

    public int kernelCode() {
        return kernelCode;
    }
}
