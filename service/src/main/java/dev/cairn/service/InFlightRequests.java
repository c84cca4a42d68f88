package dev.cairn.service;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Counts the requests in flight, for Spring's graceful shutdown, which waits until none is left.
 * Spring finds that count through {@link StatisticsHandler#getRequestsActive()}, hence the
 * superclass; but where Jetty's handler wraps every request and response and keeps a dozen
 * statistics that nobody reads (about 5 % of a hot GET's CPU), this one only counts. A request
 * counts from the moment it reaches the handlers until its callback completes, so an answer that
 * is still being written after the handler returned ({@code JettyExchange#writeLastDetached}) is
 * waited for. The other statistics of the superclass stay at zero.
 */
public final class InFlightRequests extends StatisticsHandler {
    private final AtomicInteger active = new AtomicInteger();

    public InFlightRequests(Handler handler) {
        super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler next = getHandler();
        if (next == null) {
            return false;
        }
        active.incrementAndGet();
        Counted counted = new Counted(callback);
        boolean handled;
        try {
            handled = next.handle(request, response, counted);
        } catch (Throwable e) {
            // Jetty answers with the error through its own callback: ours is never completed.
            counted.done();
            throw e;
        }
        if (!handled) {
            counted.done();
        }
        return handled;
    }

    /** Requests that reached the handlers and whose answers are not complete yet. */
    @Override
    public int getRequestsActive() {
        return active.get();
    }

    /** The handler's callback, which ends the request's count once, whichever way it completes. */
    private final class Counted implements Callback {
        private static final AtomicIntegerFieldUpdater<Counted> DONE =
                AtomicIntegerFieldUpdater.newUpdater(Counted.class, "done");
        private final Callback callback;
        private volatile int done;

        Counted(Callback callback) {
            this.callback = callback;
        }

        @Override
        public void succeeded() {
            try {
                callback.succeeded();
            } finally {
                done();
            }
        }

        @Override
        public void failed(Throwable x) {
            try {
                callback.failed(x);
            } finally {
                done();
            }
        }

        @Override
        public InvocationType getInvocationType() {
            return callback.getInvocationType();
        }

        void done() {
            if (DONE.compareAndSet(this, 0, 1)) {
                active.decrementAndGet();
            }
        }
    }
}
