package dev.cairn.loadtest.version;

import picocli.CommandLine;

/**
 * The version from the jar's manifest (set by the build), for every command's {@code --version}.
 * A package of its own, below every other: the commands of all packages name it.
 */
public final class ManifestVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = ManifestVersion.class.getPackage().getImplementationVersion();
        return new String[] {"cairn " + (version == null ? "(development build)" : version)};
    }
}
