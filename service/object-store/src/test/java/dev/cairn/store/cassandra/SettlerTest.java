package dev.cairn.store.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The settling pool without a cluster: settles of one slot queued together run once. */
class SettlerTest {

    @Test
    void settlesOfOneSlotQueuedTogetherRunOnceInOrder() throws Exception {
        try (Settler settler = new Settler(1, 16)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            settler.submit(() -> {
                started.countDown();
                await(release);
            });
            assertTrue(started.await(60, TimeUnit.SECONDS));
            List<List<Integer>> runs = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 5; i++) {
                settler.submit("a", i, runs::add);
            }
            settler.submit("b", 10, runs::add);
            release.countDown();
            settler.awaitSettled();
            assertEquals(List.of(List.of(0, 1, 2, 3, 4), List.of(10)), runs);
            assertEquals(4, settler.takeStats().coalesced());
            assertEquals(0, settler.takeStats().coalesced(), "a benchmark's counts start again");
            Settler.Stats totals = settler.totals();
            assertEquals(4, totals.coalesced(), "the metrics' counts do not");
            assertEquals(3, totals.settled());
            assertEquals(0, totals.maxPending(), "nothing queued or running");
        }
    }

    @Test
    void aSlotWhoseSettleStartedQueuesAnother() throws Exception {
        try (Settler settler = new Settler(1, 16)) {
            CountDownLatch inFirst = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<List<Integer>> runs = new CopyOnWriteArrayList<>();
            settler.submit("a", 1, items -> {
                runs.add(items);
                inFirst.countDown();
                await(release);
            });
            assertTrue(inFirst.await(60, TimeUnit.SECONDS));
            settler.submit("a", 2, runs::add);
            release.countDown();
            settler.awaitSettled();
            assertEquals(List.of(List.of(1), List.of(2)), runs);
        }
    }

    @Test
    void aFullQueueSettlesInTheWriterAndLostSettlesAreNotAwaited() throws Exception {
        try (Settler settler = new Settler(1, 1)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            settler.submit(() -> {
                started.countDown();
                await(release);
            });
            assertTrue(started.await(60, TimeUnit.SECONDS));
            List<Integer> ran = new CopyOnWriteArrayList<>();
            settler.submit("a", 1, ran::addAll);
            settler.submit("b", 2, ran::addAll);
            assertEquals(List.of(2), ran, "the queue holds one: the second settles in the writer's thread");
            assertEquals(1, settler.loseQueued());
            release.countDown();
            settler.awaitSettled();
            assertEquals(List.of(2), ran);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
