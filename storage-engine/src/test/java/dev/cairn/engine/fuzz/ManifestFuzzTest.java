package dev.cairn.engine.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The manifest CURRENT names (the list of live files). Any bytes in its place: the dump and the engine's open either refuse with an IOException
 * (a CorruptionException for damage) or read back only values once written; no other exception,
 * no hang, no allocation beyond the file.
 */
class ManifestFuzzTest {
    private static final Path FILE = EngineImage.get().file(name -> name.startsWith("MANIFEST-"));

    @FuzzTest(maxDuration = "10s")
    void openManifest(byte[] contents) throws IOException {
        EngineImage image = EngineImage.get();
        image.openAndReadAll(image.withFile(FILE, contents), FILE);
    }
}
