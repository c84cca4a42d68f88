package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Records every request a session completes (its CQL, start and end), so a test or a trace can
 * count the statements of one operation and its round trips: the statements that ran one after
 * another rather than overlapping. Thread-safe.
 */
final class StatementTrace implements RequestTracker {
    /** One completed request. */
    record Call(String cql, long startNanos, long endNanos, boolean failed) {
        double millis() {
            return (endNanos - startNanos) / 1e6;
        }
    }

    private final List<Call> calls = new ArrayList<>();

    @Override
    public void onSuccess(Request request, long latencyNanos, DriverExecutionProfile profile, Node node, String prefix) {
        add(request, latencyNanos, false);
    }

    @Override
    public void onError(Request request, Throwable error, long latencyNanos, DriverExecutionProfile profile, Node node,
                        String prefix) {
        add(request, latencyNanos, true);
    }

    private synchronized void add(Request request, long latencyNanos, boolean failed) {
        long end = System.nanoTime();
        calls.add(new Call(cql(request), end - latencyNanos, end, failed));
    }

    @Override
    public void close() {
    }

    /** Forgets what was recorded. */
    synchronized void clear() {
        calls.clear();
    }

    /** What was recorded since the last clear, in order of start. */
    synchronized List<Call> calls() {
        List<Call> out = new ArrayList<>(calls);
        out.sort(Comparator.comparingLong(Call::startNanos));
        return out;
    }

    /**
     * What was recorded, once a call whose CQL matches has been: the driver tells the tracker of a
     * statement's end a little after it completes the caller's future, so a statement the caller
     * saw answered may not be recorded yet.
     */
    /** The calls once each predicate matches one of them (or after 30 s, for the assertion to tell). */
    @SafeVarargs
    final List<Call> callsOnceRecorded(Predicate<String>... cqls) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!allRecorded(cqls) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return calls();
    }

    private boolean allRecorded(Predicate<String>[] cqls) {
        List<Call> now = calls();
        for (Predicate<String> cql : cqls) {
            if (now.stream().noneMatch(c -> cql.test(c.cql()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Round trips: a call started after an earlier call of the current group ended depends on
     * it, and opens the next group. Ends are taken when the tracker hears of them, a little after
     * the caller did, hence the tolerance.
     */
    static int roundTrips(List<Call> calls) {
        long tolerance = 500_000;
        int trips = 0;
        long firstEnd = Long.MIN_VALUE;
        for (Call c : calls) {
            if (trips == 0 || c.startNanos() >= firstEnd - tolerance) {
                trips++;
                firstEnd = c.endNanos();
            } else {
                firstEnd = Math.min(firstEnd, c.endNanos());
            }
        }
        return trips;
    }

    /** A short name for a request: the statement's verb and table, or the batch's members. */
    static String cql(Request request) {
        if (request instanceof BatchStatement b) {
            StringBuilder s = new StringBuilder("BATCH(").append(b.getBatchType()).append(": ");
            for (BatchableStatement<?> st : b) {
                s.append(cql(st)).append("; ");
            }
            return s.append(")").toString();
        }
        String q = request instanceof BoundStatement bs ? bs.getPreparedStatement().getQuery()
                : request instanceof SimpleStatement ss ? ss.getQuery() : request.getClass().getSimpleName();
        return shorten(q);
    }

    private static String shorten(String q) {
        String s = q.replaceAll("\\s+", " ").replaceAll("\\b[a-z_0-9]+\\.(?=[a-z_]+\\b)", "");
        int where = s.indexOf(" WHERE ");
        int values = s.indexOf(" VALUES ");
        int cut = where > 0 ? where : values > 0 ? values : s.length();
        String tail = s.contains(" IF ") ? s.substring(s.indexOf(" IF ")) : "";
        return s.substring(0, cut) + tail;
    }
}
