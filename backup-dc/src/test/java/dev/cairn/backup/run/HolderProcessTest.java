package dev.cairn.backup.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** This process's host, pid space and start are found once, not at each check of a lease. */
class HolderProcessTest {
    @Test
    void thisProcessIsFoundOnce() {
        HolderProcess self = HolderProcess.current();
        assertSame(self, HolderProcess.current());
        assertFalse(self.goneFromThisHost(), "this process runs");
        HolderProcess gone = new HolderProcess(self.host(), self.pidSpace(), Long.MAX_VALUE - 1, self.start());
        assertTrue(gone.goneFromThisHost() || self.pidSpace() == null, "a pid that names no process holds nothing");
    }
}
