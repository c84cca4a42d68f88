package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableFormat.*;

import dev.cairn.engine.util.Varint;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * The properties block: a sequence of {@code tag varint | length varint | bytes} fields, numbers
 * encoded as one varint inside their bytes. Unknown tags are skipped so that later writers may
 * add fields. Stateless.
 */
final class PropertiesCodec {
    private PropertiesCodec() {
    }

    static byte[] encode(TableProperties p) {
        ByteBuffer out = ByteBuffer.allocate(256 + p.smallestKey().length + p.largestKey().length);
        putNumber(out, PROP_ENTRY_COUNT, p.entryCount());
        putNumber(out, PROP_DELETION_COUNT, p.deletionCount());
        putNumber(out, PROP_VALUE_POINTER_COUNT, p.valuePointerCount());
        putBytes(out, PROP_SMALLEST_KEY, p.smallestKey());
        putBytes(out, PROP_LARGEST_KEY, p.largestKey());
        putNumber(out, PROP_SMALLEST_SEQUENCE, p.smallestSequence());
        putNumber(out, PROP_LARGEST_SEQUENCE, p.largestSequence());
        putNumber(out, PROP_RAW_KEY_BYTES, p.rawKeyBytes());
        putNumber(out, PROP_RAW_VALUE_BYTES, p.rawValueBytes());
        putNumber(out, PROP_DATA_BLOCK_COUNT, p.dataBlockCount());
        putNumber(out, PROP_DATA_BYTES, p.dataBytes());
        putNumber(out, PROP_FILTER_KEY_COUNT, p.filterKeyCount());
        putNumber(out, PROP_CREATION_TIME_MILLIS, p.creationTimeMillis());
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    /** Decodes a properties block; {@code fileSize} comes from the file. Throws on bad contents. */
    static TableProperties decode(byte[] contents, long fileSize) {
        long[] numbers = new long[PROP_CREATION_TIME_MILLIS + 1];
        boolean[] seen = new boolean[numbers.length];
        byte[] smallest = null;
        byte[] largest = null;
        ByteBuffer in = ByteBuffer.wrap(contents);
        try {
            while (in.hasRemaining()) {
                int tag = Varint.getInt(in);
                int length = Varint.getLength(in);
                byte[] field = new byte[length];
                in.get(field);
                if (tag == PROP_SMALLEST_KEY) {
                    smallest = field;
                } else if (tag == PROP_LARGEST_KEY) {
                    largest = field;
                } else if (tag > 0 && tag < numbers.length) {
                    ByteBuffer value = ByteBuffer.wrap(field);
                    numbers[tag] = Varint.getLong(value);
                    if (value.hasRemaining()) {
                        throw new IllegalArgumentException("property " + tag + " has trailing bytes");
                    }
                    seen[tag] = true;
                }
            }
        } catch (BufferUnderflowException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("truncated property", e);
        }
        for (int tag = 1; tag < numbers.length; tag++) {
            if (!seen[tag] && tag != PROP_SMALLEST_KEY && tag != PROP_LARGEST_KEY) {
                throw new IllegalArgumentException("missing property " + tag);
            }
        }
        if (smallest == null || largest == null) {
            throw new IllegalArgumentException("missing smallest or largest key");
        }
        return new TableProperties(numbers[PROP_ENTRY_COUNT], numbers[PROP_DELETION_COUNT],
                numbers[PROP_VALUE_POINTER_COUNT], smallest, largest, numbers[PROP_SMALLEST_SEQUENCE],
                numbers[PROP_LARGEST_SEQUENCE], numbers[PROP_RAW_KEY_BYTES], numbers[PROP_RAW_VALUE_BYTES],
                numbers[PROP_DATA_BLOCK_COUNT], numbers[PROP_DATA_BYTES], numbers[PROP_FILTER_KEY_COUNT],
                numbers[PROP_CREATION_TIME_MILLIS], fileSize);
    }

    private static void putNumber(ByteBuffer out, int tag, long value) {
        Varint.putLong(out, tag);
        Varint.putLong(out, Varint.size(value));
        Varint.putLong(out, value);
    }

    private static void putBytes(ByteBuffer out, int tag, byte[] value) {
        Varint.putLong(out, tag);
        Varint.putLong(out, value.length);
        out.put(value);
    }
}
