package dev.cairn.engine.vlog;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fuzz.EngineImage;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A value pointer (from a log record or an SSTable) whose length runs past the value file is
 * refused before a buffer of that length is allocated (found reviewing the readers); one that
 * cannot be a pointer is a CorruptionException, not an IllegalArgumentException (found by
 * {@code SSTableBlocksFuzzTest} and {@code LogRecordsFuzzTest}; their inputs are kept as seeds).
 */
class DamagedPointerTest {

    @Test
    void aPointerPastTheEndOrOfNegativeLengthIsCorruption() throws IOException {
        EngineImage image = EngineImage.get();
        Path file = image.file(name -> name.endsWith(".vlog"));
        long number = Long.parseLong(file.getFileName().toString().replace(".vlog", ""));
        var fs = image.withFile(file, image.bytes(file));
        try (ValueFileReader reader = ValueFileReader.open(fs, file, number)) {
            assertThrows(CorruptionException.class,
                    () -> reader.read(new ValuePointer(number, 64, Integer.MAX_VALUE, 0)));
        }
        byte[] negative = new ValuePointer(number, 64, 5, 0).encode();
        java.nio.ByteBuffer.wrap(negative).putInt(12, -5);
        assertThrows(CorruptionException.class, () -> ValuePointer.decodeStored(negative, "a test record"));
        assertThrows(CorruptionException.class, () -> ValuePointer.decodeStored(new byte[7], "a test record"));
    }
}
