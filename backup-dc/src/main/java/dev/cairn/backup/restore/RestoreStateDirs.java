package dev.cairn.backup.restore;

import java.nio.file.Path;

/**
 * Where a restore records its progress unless told ({@code --state-dir}): beside the destination,
 * in the data directory of an embedded store, else in the user's home (a keyspace or an endpoint
 * has no local place). Never the archive, which a restore only reads.
 */
public final class RestoreStateDirs {
    /** The folder's name, in an embedded store's data directory or in {@code ~/.cairn}. */
    public static final String NAME = "restores";
    /** The default beside an embedded store's data directory {@code DIR}, as the help shows it. */
    public static final String BESIDE_STORE = "DIR/" + NAME;
    /** The default for other destinations, as the help shows it. */
    public static final String IN_HOME = "~/.cairn/" + NAME;

    private RestoreStateDirs() {
    }

    /** The state directory of a restore into the embedded store in {@code dataDir}. */
    public static Path besideStore(Path dataDir) {
        return dataDir.resolve(NAME);
    }

    /** The state directory of a restore into a destination with no local place. */
    public static Path inHome() {
        return Path.of(System.getProperty("user.home"), ".cairn", NAME);
    }
}
