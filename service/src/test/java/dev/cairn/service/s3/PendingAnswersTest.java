package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class PendingAnswersTest {

    @Test
    void aSharedBufferCountsOnceWhileAnyAnswerHoldsIt() {
        PendingAnswers pending = new PendingAnswers(1000);
        Object cacheEntry = new Object();
        Runnable first = pending.tryHold(cacheEntry, 600);
        Runnable second = pending.tryHold(cacheEntry, 600);
        assertNotNull(first);
        assertNotNull(second);
        assertEquals(600, pending.used());
        first.run();
        assertEquals(600, pending.used());
        second.run();
        assertEquals(0, pending.used());
    }

    @Test
    void pastTheBudgetNothingIsHeldAndTheRefusalIsCounted() {
        PendingAnswers pending = new PendingAnswers(1000);
        Runnable own = pending.tryHold(new Object(), 600);
        assertNull(pending.tryHold(new Object(), 600));
        assertEquals(1, pending.refusals());
        assertEquals(600, pending.used());
        Runnable again = pending.tryHold(new Object(), 400);
        assertNotNull(again);
        own.run();
        again.run();
        assertEquals(0, pending.used());
    }
}
