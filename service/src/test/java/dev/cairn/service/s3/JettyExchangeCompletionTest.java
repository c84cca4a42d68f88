package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * The handler's callback of an answer written detached is completed exactly once, by whichever of
 * the two ends last: the handler returning ({@code served}) or Jetty completing the write, also
 * when both happen on two threads at the same moment, and also when the write fails (the client
 * left, an idle timeout): then it fails, and never succeeds as well.
 */
class JettyExchangeCompletionTest {
    private static final int ROUNDS = 2_000;

    /** The handler's callback, counting how it was completed. */
    private static final class Counting implements Callback {
        final AtomicInteger succeeded = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        @Override
        public void succeeded() {
            succeeded.incrementAndGet();
        }

        @Override
        public void failed(Throwable x) {
            failure.set(x);
            failed.incrementAndGet();
        }
    }

    private final Request request = mock(Request.class);
    private final Response response = mock(Response.class);
    /** The Jetty callback of the last detached write. */
    private final AtomicReference<Callback> write = new AtomicReference<>();

    JettyExchangeCompletionTest() {
        when(response.getHeaders()).thenAnswer(call -> HttpFields.build());
        doAnswer(call -> {
            write.set(call.getArgument(2));
            return null;
        }).when(response).write(anyBoolean(), any(ByteBuffer.class), any(Callback.class));
    }

    /** An exchange whose detached write is pending; its Jetty callback is in {@link #write}. */
    private JettyExchange pendingWrite(Counting completed, AtomicInteger whenComplete) {
        JettyExchange exchange = new JettyExchange(request, response, completed, true);
        exchange.writeLastDetached(ByteBuffer.allocate(1024), taken -> { });
        exchange.whenComplete(failure -> whenComplete.incrementAndGet());
        return exchange;
    }

    @Test
    void theWriteEndingAfterTheHandlerCompletesTheAnswer() {
        Counting completed = new Counting();
        AtomicInteger whenComplete = new AtomicInteger();
        JettyExchange exchange = pendingWrite(completed, whenComplete);
        exchange.served(null);
        assertEquals(0, completed.succeeded.get() + completed.failed.get(), "completed with a write pending");
        write.get().succeeded();
        assertEquals(1, completed.succeeded.get());
        assertEquals(1, whenComplete.get());
    }

    @Test
    void theHandlerEndingAfterTheWriteCompletesTheAnswer() {
        Counting completed = new Counting();
        AtomicInteger whenComplete = new AtomicInteger();
        JettyExchange exchange = pendingWrite(completed, whenComplete);
        write.get().succeeded();
        assertEquals(0, completed.succeeded.get() + completed.failed.get(), "completed while the handler runs");
        exchange.served(null);
        assertEquals(1, completed.succeeded.get());
        assertEquals(1, whenComplete.get());
    }

    @Test
    void bothEndingOnTwoThreadsAtOnceCompleteTheAnswerOnce() throws Exception {
        race(false);
    }

    @Test
    void aWriteFailingWhileTheHandlerEndsFailsTheAnswerOnceAndNeverSucceedsIt() throws Exception {
        race(true);
    }

    private void race(boolean writeFails) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        IOException gone = new IOException("the client left");
        for (int round = 0; round < ROUNDS; round++) {
            Counting completed = new Counting();
            AtomicInteger whenComplete = new AtomicInteger();
            JettyExchange exchange = pendingWrite(completed, whenComplete);
            Callback written = write.get();
            Thread jetty = new Thread(() -> {
                await(start);
                if (writeFails) {
                    written.failed(gone);
                } else {
                    written.succeeded();
                }
            });
            jetty.start();
            await(start);
            exchange.served(null);
            jetty.join();
            String where = "round " + round;
            assertEquals(writeFails ? 0 : 1, completed.succeeded.get(), where);
            assertEquals(writeFails ? 1 : 0, completed.failed.get(), where);
            assertEquals(1, whenComplete.get(), where);
            if (writeFails) {
                assertSame(gone, completed.failure.get(), where);
            }
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
