package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeapBudgetTest {
    private static final long MIB = 1L << 20;

    private static List<HeapBudget.Part> parts(long object, long block, long row, long memtables) {
        return List.of(new HeapBudget.Part("cairn.cache.object-cache-size", object * MIB),
                new HeapBudget.Part("cairn.engine.block-cache-size", block * MIB),
                new HeapBudget.Part("the engine's row cache", row * MIB),
                new HeapBudget.Part("cairn.engine.memtable-size x 3", memtables * MIB));
    }

    @Test
    void theDefaultsInAOneGibHeapAreReported() {
        Optional<String> warning = HeapBudget.check(1024 * MIB, parts(256, 256, 256, 192));
        assertTrue(warning.isPresent());
        assertTrue(warning.get().contains("960 MiB, 94% of the 1024 MiB heap"), warning.get());
        assertTrue(warning.get().contains("cairn.engine.block-cache-size 256 MiB"), warning.get());
    }

    @Test
    void budgetsWithinTheShareAreQuiet() {
        assertEquals(Optional.empty(), HeapBudget.check(4096 * MIB, parts(256, 256, 256, 192)));
        assertEquals(Optional.empty(), HeapBudget.check(1000 * MIB, parts(150, 150, 100, 200)));
    }

    @Test
    void partsSwitchedOffAreNotNamed() {
        String warning = HeapBudget.check(100 * MIB, parts(0, 64, 0, 192)).orElseThrow();
        assertTrue(!warning.contains("object-cache-size") && !warning.contains("row cache"), warning);
    }
}
