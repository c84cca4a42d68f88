package dev.cairn.engine.internal;

import dev.cairn.engine.fuzz.EngineImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Frames fuzz input as the records of a log or manifest file with correct CRC32Cs, for the
 * harnesses that reach past the checksums ({@link LogRecordsFuzzTest}, {@link ManifestRecordsFuzzTest}).
 * Input: records, each a big-endian u16 length and that many payload bytes (the last may be short).
 */
final class FramedRecords {
    private FramedRecords() {
    }

    static byte[] frame(String magic, int version, byte[] input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(RecordFile.HEADER_BYTES).put(RecordFile.magicBytes(magic)).putInt(version)
                .putInt(0).array());
        ByteBuffer in = ByteBuffer.wrap(input);
        while (in.remaining() >= 2) {
            int length = Math.min(in.getShort() & 0xFFFF, in.remaining());
            byte[] payload = new byte[length];
            in.get(payload);
            ByteBuffer record = ByteBuffer.allocate(RecordFile.RECORD_HEADER_BYTES + length);
            record.putInt(0).putInt(length).put(payload);
            CRC32C crc = new CRC32C();
            crc.update(record.array(), 4, 4 + length);
            record.putInt(0, (int) crc.getValue());
            out.writeBytes(record.array());
        }
        return out.toByteArray();
    }

    /** The records of an image file in the harnesses' input form, as a seed. */
    static void seed(Path dir, Path file, String magic, int version) throws IOException {
        EngineImage image = EngineImage.get();
        RecordFile.Contents contents = RecordFile.read(image.withFile(file, image.bytes(file)), file, magic, version);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] record : contents.records()) {
            out.writeBytes(ByteBuffer.allocate(2).putShort((short) record.length).array());
            out.writeBytes(record);
        }
        Files.createDirectories(dir);
        Files.write(dir.resolve("written-by-the-engine"), out.toByteArray());
    }
}
