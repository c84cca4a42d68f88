package dev.cairn.store;

/** An object's row and its content, read consistently (never a mix of two writes). */
public interface ObjectRead extends ContentRead {

    ObjectInfo info();

    @Override
    default long size() {
        return info().size();
    }
}
