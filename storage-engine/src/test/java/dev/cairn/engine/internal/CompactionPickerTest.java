package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cairn.engine.EngineOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompactionPickerTest {
    private static FileMeta file(long number, long size, String lo, String hi) {
        return new FileMeta(number, size, 1, InternalKeys.encode(1, lo.getBytes(), 5, InternalKeys.KIND_VALUE),
                InternalKeys.encode(1, hi.getBytes(), 5, InternalKeys.KIND_VALUE));
    }

    private static Version version(List<List<FileMeta>> levels) {
        List<List<FileMeta>> all = new ArrayList<>(levels);
        while (all.size() < ManifestState.MAX_LEVELS) {
            all.add(List.of());
        }
        return new Version(all, () -> { });
    }

    private final EngineOptions options = EngineOptions.builder(Path.of("/x")).level0CompactionTrigger(2)
            .targetFileBytes(4096).level1Bytes(10_000).levelSizeMultiplier(10).build();

    @Test
    void levelZeroAtItsTriggerGoesIntoLevelOneWithTheOverlappingFiles() {
        Version v = version(List.of(
                List.of(file(9, 100, "c", "f"), file(8, 100, "a", "d")),
                List.of(file(1, 100, "a", "b"), file(2, 100, "e", "g"), file(3, 100, "x", "z"))));
        Compaction c = new CompactionPicker(options).pick(v);
        assertEquals(0, c.level());
        assertEquals(2, c.inputs().size());
        assertEquals(List.of(1L, 2L), c.next().stream().map(FileMeta::number).toList());
        assertEquals(1, c.outputLevel());
    }

    @Test
    void theLevelMostOverItsTargetGivesUpOneFileRoundRobin() {
        Version v = version(List.of(List.of(),
                List.of(file(1, 6000, "a", "c"), file(2, 6000, "d", "f")),
                List.of(file(3, 100, "b", "b"))));
        CompactionPicker picker = new CompactionPicker(options);
        Compaction first = picker.pick(v);
        assertEquals(1, first.level());
        assertEquals(1L, first.inputs().get(0).number());
        assertEquals(List.of(3L), first.next().stream().map(FileMeta::number).toList());
        assertEquals(2L, picker.pick(v).inputs().get(0).number());
    }

    @Test
    void nothingToDoWhenEveryLevelIsWithinTarget() {
        Version v = version(List.of(List.of(file(1, 10, "a", "b")), List.of(file(2, 9000, "a", "z"))));
        assertNull(new CompactionPicker(options).pick(v));
    }
}
