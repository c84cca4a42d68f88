package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

class InFlightRequestsTest {
    /** A handler that keeps the callbacks it was given, or refuses, or throws. */
    private static final class Keeper extends Handler.Abstract {
        final List<Callback> held = new ArrayList<>();
        boolean refuse;
        boolean fail;

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (fail) {
                throw new IllegalStateException("handler failed");
            }
            if (refuse) {
                return false;
            }
            held.add(callback);
            return true;
        }
    }

    /** Records how Jetty's own callback was completed. */
    private static final class Outcome implements Callback {
        int succeeded;
        Throwable failed;

        @Override
        public void succeeded() {
            succeeded++;
        }

        @Override
        public void failed(Throwable x) {
            failed = x;
        }
    }

    @Test
    void aRequestCountsUntilItsCallbackCompletesNotUntilTheHandlerReturns() throws Exception {
        Keeper keeper = new Keeper();
        InFlightRequests counter = new InFlightRequests(keeper);
        Outcome first = new Outcome();
        Outcome second = new Outcome();
        assertTrue(counter.handle(null, null, first));
        assertTrue(counter.handle(null, null, second));
        assertEquals(2, counter.getRequestsActive());

        keeper.held.get(0).succeeded();
        assertEquals(1, first.succeeded);
        assertEquals(1, counter.getRequestsActive());

        IllegalStateException broken = new IllegalStateException("write failed");
        keeper.held.get(1).failed(broken);
        assertSame(broken, second.failed);
        assertEquals(0, counter.getRequestsActive());
    }

    @Test
    void aCallbackCompletedTwiceEndsItsRequestOnce() throws Exception {
        Keeper keeper = new Keeper();
        InFlightRequests counter = new InFlightRequests(keeper);
        assertTrue(counter.handle(null, null, new Outcome()));
        assertTrue(counter.handle(null, null, new Outcome()));
        keeper.held.get(0).succeeded();
        keeper.held.get(0).failed(new IllegalStateException("late"));
        assertEquals(1, counter.getRequestsActive());
    }

    @Test
    void aRequestNotHandledOrWhoseHandlerThrowsIsNotLeftCounted() throws Exception {
        Keeper keeper = new Keeper();
        InFlightRequests counter = new InFlightRequests(keeper);
        keeper.refuse = true;
        assertFalse(counter.handle(null, null, new Outcome()));
        assertEquals(0, counter.getRequestsActive());
        keeper.fail = true;
        assertThrows(IllegalStateException.class, () -> counter.handle(null, null, new Outcome()));
        assertEquals(0, counter.getRequestsActive());
    }

    @Test
    void theCallbackCompletesBeforeTheCountDrops() throws Exception {
        Keeper keeper = new Keeper();
        InFlightRequests counter = new InFlightRequests(keeper);
        int[] seen = {-1};
        counter.handle(null, null, Callback.from(() -> seen[0] = counter.getRequestsActive()));
        keeper.held.get(0).succeeded();
        assertEquals(1, seen[0]);
        assertEquals(0, counter.getRequestsActive());
    }

    @Test
    void springsStatisticsHandlerIsSwappedAndTheHandlersInsideKept() {
        Server server = new Server();
        Keeper keeper = new Keeper();
        server.setHandler(new StatisticsHandler(keeper));
        JettyFactoryConfiguration.swapStatisticsHandler(server);
        InFlightRequests counter = (InFlightRequests) server.getHandler();
        assertSame(keeper, counter.getHandler());
        JettyFactoryConfiguration.swapStatisticsHandler(server);
        assertSame(counter, server.getHandler());
    }
}
