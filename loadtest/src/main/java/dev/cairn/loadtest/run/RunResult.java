package dev.cairn.loadtest.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.loadtest.dataset.DatasetSpec;
import dev.cairn.loadtest.targets.TraversalSource;
import dev.cairn.loadtest.workload.Operation;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What a run measured, and its JSON form (the result file; {@code report} and {@code compare}
 * read it back). Latencies in the file are milliseconds; each operation's full latency
 * histogram is kept too, HdrHistogram's compressed encoding in base64 (microseconds).
 *
 * <p>Thread-safety: immutable once built.
 */
public final class RunResult {

    /** The result file's format name; readers check it. */
    public static final String FORMAT = "cairn-loadtest-result/1";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode json;
    private final List<Long> insertedIndices;
    private final long keyCount;

    RunResult(RunConfig config, String target, DatasetSpec dataset, Instant startedAt, double elapsedSeconds,
              String stopReason, long operations, Map<Operation, OperationStats> stats, Timeline timeline,
              TraversalRun traversal, TraversalSource traversalSource, long runStartNanos, boolean verified,
              List<Long> insertedIndices, long keyCount) {
        this.insertedIndices = insertedIndices;
        this.keyCount = keyCount;
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("label", config.label());
        root.put("startedAt", startedAt.toString());
        root.put("target", target);
        root.set("config", JSON.valueToTree(config.describe()));
        root.set("dataset", JSON.valueToTree(dataset.toFields()));
        root.put("stopReason", stopReason);
        root.put("elapsedSeconds", elapsedSeconds);
        long errors = 0;
        ObjectNode perOp = root.putObject("perOperation");
        for (Map.Entry<Operation, OperationStats> e : stats.entrySet()) {
            OperationStats s = e.getValue();
            ObjectNode o = perOp.putObject(e.getKey().label());
            Histogram h = s.total();
            o.put("count", h.getTotalCount());
            o.put("opsPerSecond", h.getTotalCount() / elapsedSeconds);
            percentiles(o, h);
            o.set("errors", JSON.valueToTree(s.errors()));
            o.put("errorCount", s.errorCount());
            o.put("histogram", encode(h));
            errors += s.errorCount();
        }
        root.put("operations", operations);
        root.put("errors", errors);
        root.put("opsPerSecond", (operations - errors) / elapsedSeconds);
        root.put("verifiedReads", verified);
        ArrayNode samples = root.putArray("timeline");
        for (Timeline.Sample s : timeline.samples()) {
            ObjectNode n = samples.addObject();
            n.put("start", s.startSeconds());
            n.put("end", s.endSeconds());
            n.set("counts", byLabel(s.counts()));
            n.set("p50Ms", byLabel(s.p50Ms()));
            n.set("p99Ms", byLabel(s.p99Ms()));
            n.set("maxMs", byLabel(s.maxMs()));
            n.put("errors", s.errors());
            n.put("traversalObjects", s.traversalObjects());
            n.put("phase", s.phase().name().toLowerCase(Locale.ROOT));
        }
        if (traversal == null) {
            root.putNull("traversal");
        } else {
            ObjectNode t = root.putObject("traversal");
            t.put("source", traversalSource.describe());
            boolean started = traversal.started();
            t.put("started", started);
            double start = started ? (traversal.startedNanos() - runStartNanos) / 1e9 : elapsedSeconds;
            double end = started ? (traversal.endedNanos() - runStartNanos) / 1e9 : elapsedSeconds;
            t.put("startSeconds", start);
            t.put("endSeconds", end);
            t.put("completed", traversal.completed() && traversal.errors().isEmpty());
            t.put("objects", traversal.objects());
            t.put("bytes", traversal.bytes());
            double seconds = Math.max(1e-9, end - start);
            t.put("objectsPerSecond", started ? traversal.objects() / seconds : 0);
            t.put("megabytesPerSecond", started ? traversal.bytes() / seconds / 1e6 : 0);
            t.set("errors", JSON.valueToTree(traversal.errors()));
            ObjectNode phases = root.putObject("phases");
            for (Map.Entry<Timeline.Phase, Map<Operation, Histogram>> p : timeline.phases().entrySet()) {
                ObjectNode phase = phases.putObject(p.getKey().name().toLowerCase(Locale.ROOT));
                for (Map.Entry<Operation, Histogram> e : p.getValue().entrySet()) {
                    ObjectNode o = phase.putObject(e.getKey().label());
                    o.put("count", e.getValue().getTotalCount());
                    percentiles(o, e.getValue());
                }
            }
        }
        this.json = root;
    }

    private static void percentiles(ObjectNode o, Histogram h) {
        boolean any = h.getTotalCount() > 0;
        o.put("meanMs", any ? h.getMean() / 1000.0 : 0);
        o.put("p50Ms", any ? h.getValueAtPercentile(50) / 1000.0 : 0);
        o.put("p95Ms", any ? h.getValueAtPercentile(95) / 1000.0 : 0);
        o.put("p99Ms", any ? h.getValueAtPercentile(99) / 1000.0 : 0);
        o.put("p999Ms", any ? h.getValueAtPercentile(99.9) / 1000.0 : 0);
        o.put("maxMs", any ? h.getMaxValue() / 1000.0 : 0);
    }

    private static ObjectNode byLabel(Map<Operation, ? extends Number> m) {
        ObjectNode n = JSON.createObjectNode();
        m.forEach((op, v) -> {
            if (v instanceof Long l) {
                n.put(op.label(), l);
            } else {
                n.put(op.label(), v.doubleValue());
            }
        });
        return n;
    }

    static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), n));
    }

    /** Decodes a histogram written by {@link #encode} (microseconds). */
    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (java.util.zip.DataFormatException e) {
            throw new IllegalArgumentException("corrupt histogram in result file", e);
        }
    }

    /** The result as JSON (the result file's content). */
    public ObjectNode json() {
        return json;
    }

    /** Indices of the keys this run's inserts added, for the key registry. */
    public List<Long> insertedIndices() {
        return insertedIndices;
    }

    /** The dataset's key count after the run's inserts. */
    public long keyCount() {
        return keyCount;
    }
}
