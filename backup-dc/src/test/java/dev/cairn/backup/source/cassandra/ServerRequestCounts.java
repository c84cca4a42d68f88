package dev.cairn.backup.source.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts, on each node, the reads and range scans of one keyspace's tables that the node
 * coordinated or served as a replica — Cassandra's own table metrics, read from its virtual
 * tables on that very node. A node that received no request of the keyspace shows zero growth.
 */
final class ServerRequestCounts {
    static final List<String> METRIC_TABLES = List.of(
            "coordinator_read_latency", "coordinator_scan_latency", "local_read_latency", "local_scan_latency");

    private ServerRequestCounts() {
    }

    /** Node address → metric table → count, for every node {@code session} has a pool to in {@code datacenter}. */
    static Map<String, Map<String, Long>> of(CqlSession session, String datacenter, String keyspace) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (Node node : session.getMetadata().getNodes().values()) {
            if (!datacenter.equals(node.getDatacenter())) {
                continue;
            }
            Map<String, Long> counts = new TreeMap<>();
            for (String metric : METRIC_TABLES) {
                long sum = 0;
                for (Row r : session.execute(SimpleStatement.newInstance(
                        "SELECT count FROM system_views." + metric + " WHERE keyspace_name = ?", keyspace).setNode(node))) {
                    sum += r.getLong("count");
                }
                counts.put(metric, sum);
            }
            out.put(node.getEndPoint().toString() + " (" + datacenter + ")", counts);
        }
        return out;
    }

    static long total(Map<String, Map<String, Long>> counts) {
        return counts.values().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).sum();
    }

    static Map<String, Map<String, Long>> minus(Map<String, Map<String, Long>> after, Map<String, Map<String, Long>> before) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        after.forEach((node, m) -> {
            Map<String, Long> d = new TreeMap<>();
            m.forEach((metric, v) -> d.put(metric, v - before.getOrDefault(node, Map.of()).getOrDefault(metric, 0L)));
            out.put(node, d);
        });
        return out;
    }
}
