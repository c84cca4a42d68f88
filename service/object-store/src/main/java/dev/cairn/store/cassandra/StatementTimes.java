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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Client-side time of every statement a session ran, summed by kind (the statement's CQL up to
 * its {@code WHERE}): how many, their mean and their total, so a benchmark can say where an
 * operation's time goes. Thread-safe.
 */
final class StatementTimes implements RequestTracker {
    private record Totals(LongAdder count, LongAdder nanos, LongAdder failed) {
    }

    private final Map<String, Totals> byKind = new ConcurrentHashMap<>();

    @Override
    public void onSuccess(Request request, long latencyNanos, DriverExecutionProfile profile, Node node, String prefix) {
        add(request, latencyNanos, false);
    }

    @Override
    public void onError(Request request, Throwable error, long latencyNanos, DriverExecutionProfile profile, Node node,
                        String prefix) {
        add(request, latencyNanos, true);
    }

    private void add(Request request, long nanos, boolean failed) {
        Totals t = byKind.computeIfAbsent(kind(request), k -> new Totals(new LongAdder(), new LongAdder(), new LongAdder()));
        t.count().increment();
        t.nanos().add(nanos);
        if (failed) {
            t.failed().increment();
        }
    }

    /**
     * One line per kind since the last call, most total time first: count per {@code operations},
     * mean and total milliseconds; then forgets them.
     */
    String take(long operations) {
        Map<String, long[]> taken = new TreeMap<>();
        for (Map.Entry<String, Totals> e : byKind.entrySet()) {
            Totals t = e.getValue();
            long count = t.count().sumThenReset();
            if (count > 0) {
                taken.put(e.getKey(), new long[] {count, t.nanos().sumThenReset(), t.failed().sumThenReset()});
            }
        }
        List<Map.Entry<String, long[]>> sorted = new ArrayList<>(taken.entrySet());
        sorted.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, long[]> e : sorted) {
            long[] v = e.getValue();
            out.append(String.format(Locale.ROOT, "  %6.2f per op  mean %7.2f ms  total %8.0f ms%s  %s%n",
                    v[0] / (double) Math.max(1, operations), v[1] / 1e6 / v[0], v[1] / 1e6,
                    v[2] == 0 ? "" : " (" + v[2] + " failed)", e.getKey()));
        }
        return out.toString();
    }

    private static String kind(Request request) {
        if (request instanceof BatchStatement batch) {
            // Batches of one statement repeated count as one kind, however many rows they hold.
            Set<String> parts = new LinkedHashSet<>();
            for (BatchableStatement<?> s : batch) {
                parts.add(kind(s));
            }
            return batch.getBatchType() + " BATCH " + parts + (parts.size() < batch.size() ? " (rows repeated)" : "");
        }
        String cql = request instanceof BoundStatement b ? b.getPreparedStatement().getQuery()
                : request instanceof SimpleStatement s ? s.getQuery() : request.getClass().getSimpleName();
        int where = cql.indexOf(" WHERE");
        String head = where < 0 ? cql : cql.substring(0, where);
        int values = head.indexOf(" VALUES");
        return (values < 0 ? head : head.substring(0, values)).replaceAll("\\b\\w+\\.(\\w+)", "$1");
    }

    @Override
    public void close() {
    }
}
