package dev.cairn.service.s3;

/** A class of the S3 layer's package that uses the engine's API, for ArchitectureTest's probe of the S3 rule. */
public final class EngineApiUserForWallProbe {
    private EngineApiUserForWallProbe() {
    }

    static int readOptions() {
        return dev.cairn.engine.ReadOptions.SCAN.hashCode();
    }
}
