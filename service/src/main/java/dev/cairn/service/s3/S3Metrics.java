package dev.cairn.service.s3;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The S3 layer's meters: a latency histogram per operation, bytes in and out, errors by code.
 * Meters are created once and cached, so recording costs no registry lookup. Thread-safe.
 */
public final class S3Metrics {
    private final MeterRegistry registry;
    private final Map<Operation, Timer> timers = new EnumMap<>(Operation.class);
    private final Map<String, Counter> errors = new ConcurrentHashMap<>();
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final Counter handedOff;

    public S3Metrics(MeterRegistry registry) {
        this.registry = registry;
        for (Operation op : Operation.values()) {
            timers.put(op, Timer.builder("cairn.s3.requests")
                    .description("S3 request latency by operation")
                    .tag("operation", op.apiName())
                    .publishPercentileHistogram()
                    .register(registry));
        }
        bytesIn = Counter.builder("cairn.s3.bytes.in").baseUnit("bytes").description("request body bytes read")
                .register(registry);
        bytesOut = Counter.builder("cairn.s3.bytes.out").baseUnit("bytes").description("response body bytes written")
                .register(registry);
        handedOff = Counter.builder("cairn.s3.requests.handed.off")
                .description("GETs and HEADs tried on the network thread and served again on a pool thread")
                .register(registry);
    }

    /** A GET or HEAD not answered from memory on the network thread ({@link JettyS3Handler}). */
    void handedOff() {
        handedOff.increment();
    }

    void record(Operation op, long nanos, long in, long out, String errorCode) {
        timers.get(op).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        if (in > 0) {
            bytesIn.increment(in);
        }
        if (out > 0) {
            bytesOut.increment(out);
        }
        if (errorCode != null) {
            errors.computeIfAbsent(errorCode, c -> Counter.builder("cairn.s3.errors")
                    .description("S3 error responses by code").tag("code", c).register(registry)).increment();
        }
    }
}
