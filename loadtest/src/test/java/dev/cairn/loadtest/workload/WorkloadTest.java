package dev.cairn.loadtest.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.loadtest.generator.KeyDistribution;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WorkloadTest {

    @Test
    void presetsAreYcsbsAndMyCassandras() {
        assertEquals(0.5, Workload.preset("A").proportion(Operation.UPDATE));
        assertEquals(0.05, Workload.preset("b").proportion(Operation.UPDATE));
        assertEquals(1.0, Workload.preset("c").proportion(Operation.READ));
        assertEquals(KeyDistribution.LATEST, Workload.preset("d").distribution());
        assertEquals(0.05, Workload.preset("d").proportion(Operation.INSERT));
        assertEquals(0.95, Workload.preset("e").proportion(Operation.SCAN));
        assertEquals(0.5, Workload.preset("f").proportion(Operation.READ_MODIFY_WRITE));
        assertEquals(1.0, Workload.preset("write-only").proportion(Operation.UPDATE));
        assertEquals(0.5, Workload.preset("write-heavy").proportion(Operation.UPDATE));
        assertEquals(0.95, Workload.preset("read-heavy").proportion(Operation.READ));
        assertEquals(1.0, Workload.preset("read-only").proportion(Operation.READ));
        assertEquals(0.04, Workload.preset("mixed").proportion(Operation.DELETE));
        assertTrue(Operation.COPY.usesScratchKey() && Operation.MULTIPART.usesScratchKey());
        assertFalse(Operation.UPDATE.usesScratchKey());
        assertTrue(Workload.preset("d").readsVerifiable());
        assertFalse(Workload.preset("f").readsVerifiable());
        assertThrows(IllegalArgumentException.class, () -> Workload.preset("g"));
    }

    @Test
    void mixesMustAddUpToOne() {
        Map<Operation, Double> mix = new EnumMap<>(Operation.class);
        mix.put(Operation.READ, 0.5);
        mix.put(Operation.UPDATE, 0.4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Workload.preset("a").withProportions(mix));
        assertTrue(e.getMessage().contains("add up to 1"), e.getMessage());
    }

    @Test
    void operationsAreDrawnInProportion() {
        long seed = 7;
        System.out.println("seed " + seed);
        Workload e = Workload.preset("e");
        SplittableRandom random = new SplittableRandom(seed);
        int n = 200_000;
        int scans = 0;
        for (int i = 0; i < n; i++) {
            Operation op = e.next(random);
            assertTrue(op == Operation.SCAN || op == Operation.INSERT, op.label());
            scans += op == Operation.SCAN ? 1 : 0;
        }
        double sd = Math.sqrt(n * 0.95 * 0.05);
        assertTrue(Math.abs(scans - 0.95 * n) < 4.5 * sd, "scans " + scans + " of " + n);
    }
}
