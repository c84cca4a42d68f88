package dev.cairn.engine.internal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.engine.fuzz.EngineImage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The manifest's record (tables, levels, files, value files) past their checksums: the harness frames the fuzzed bytes as records with correct
 * CRC32Cs ({@link FramedRecords}), so that the decoders behind them see any payload a damaged
 * or hostile file could hold. Such records may carry any data, so only this must hold: the
 * engine opens and reads, or refuses with an IOException; never another exception, and never an
 * allocation larger than the file.
 */
class ManifestRecordsFuzzTest {
    private static final Path FILE = EngineImage.get().file(name -> name.startsWith("MANIFEST-"));

    @FuzzTest(maxDuration = "10s")
    void manifestRecords(byte[] input) throws IOException {
        EngineImage image = EngineImage.get();
        image.openAndReadAll(image.withFile(FILE, FramedRecords.frame(ManifestStore.MAGIC, ManifestStore.FORMAT_VERSION, input)), FILE, false);
    }

    /** Writes the image's records as a seed: {@code ManifestRecordsFuzzTest <resources dir>}. */
    public static void main(String[] args) throws IOException {
        FramedRecords.seed(Path.of(args[0]).resolve("dev/cairn/engine/internal/ManifestRecordsFuzzTestInputs/manifestRecords"), FILE,
                ManifestStore.MAGIC, ManifestStore.FORMAT_VERSION);
    }
}
