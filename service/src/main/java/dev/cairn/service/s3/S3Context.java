package dev.cairn.service.s3;

import dev.cairn.service.config.CairnProperties;
import dev.cairn.store.ObjectStore;
import java.nio.file.Path;

/**
 * What every handler shares: the store, the settings, where upload bodies are held and the
 * identity reported as owner. Immutable; thread-safe.
 */
public record S3Context(ObjectStore store, Authenticator authenticator, CairnProperties properties, Spool spool,
                        String ownerId, String ownerName) {

    /** Upload bodies spool under {@code spoolDir}, with the threshold and memory budget of {@code properties}. */
    public S3Context(ObjectStore store, Authenticator authenticator, CairnProperties properties, Path spoolDir,
                     String ownerId, String ownerName) {
        this(store, authenticator, properties, new Spool(spoolDir,
                properties.getLimits().getSpoolMemoryThreshold().toBytes(),
                new MemoryBudget(properties.getLimits().getSpoolMemoryBudget().toBytes())), ownerId, ownerName);
    }

    public Path spoolDir() {
        return spool.dir();
    }

    long maxObjectSize() {
        return properties.getLimits().getMaxObjectSize().toBytes();
    }
}
