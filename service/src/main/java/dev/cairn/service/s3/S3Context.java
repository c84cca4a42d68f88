package dev.cairn.service.s3;

import dev.cairn.service.CairnProperties;
import dev.cairn.store.ObjectStore;
import java.nio.file.Path;

/**
 * What every handler shares: the store, the settings, the spool directory and the identity
 * reported as owner. Immutable; thread-safe.
 */
public record S3Context(ObjectStore store, Authenticator authenticator, CairnProperties properties, Path spoolDir,
                        String ownerId, String ownerName) {

    long maxObjectSize() {
        return properties.getLimits().getMaxObjectSize().toBytes();
    }

    long spoolThreshold() {
        return properties.getLimits().getSpoolMemoryThreshold().toBytes();
    }
}
