package dev.cairn.engine.fs;

/** The kinds of file system operation that {@link FaultInjectingFileSystem} can make fail. */
public enum FsOp {
    /** {@link FileSystem#create}. */
    CREATE,
    /** {@link FileSystem#openRead}. */
    OPEN_READ,
    /** {@link WritableFile#append}. */
    APPEND,
    /** {@link WritableFile#sync}. */
    SYNC,
    /** {@link ReadableFile#read}, and so every {@code readFully}. */
    READ,
    /** {@link FileSystem#rename}; a path predicate matches the source or the target. */
    RENAME,
    /** {@link FileSystem#delete}. */
    DELETE,
    /** {@link FileSystem#link}; a path predicate matches the existing file or the new link. */
    LINK,
    /** {@link FileSystem#exists}. */
    EXISTS,
    /** {@link FileSystem#size} and {@link ReadableFile#size}. */
    SIZE,
    /** {@link FileSystem#list}. */
    LIST,
    /** {@link FileSystem#createDirectories}. */
    CREATE_DIRECTORIES,
    /** {@link FileSystem#syncDirectory}. */
    SYNC_DIR,
    /** {@link FileSystem#punchHole}. */
    PUNCH_HOLE,
    /** {@link FileSystem#lock}. */
    LOCK
}
