package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpsSamplerTest {
    @TempDir
    Path dir;

    @Test
    void eachSampleIsTheDifferenceFromTheOneBefore() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Timer gets = Timer.builder("cairn.s3.requests").tag("operation", "GetObject").publishPercentileHistogram()
                .register(registry);
        Timer puts = Timer.builder("cairn.s3.requests").tag("operation", "PutObject").publishPercentileHistogram()
                .register(registry);
        Counter errors = Counter.builder("cairn.s3.errors").tag("code", "NoSuchKey").register(registry);
        AtomicLong hits = new AtomicLong();
        AtomicLong misses = new AtomicLong();
        FunctionCounter.builder("cairn.cache.objects.hits", hits, AtomicLong::get).register(registry);
        FunctionCounter.builder("cairn.cache.objects.misses", misses, AtomicLong::get).register(registry);
        AtomicLong nanos = new AtomicLong();
        java.nio.file.Files.write(dir.resolve("f"), new byte[1000]);
        OpsSampler sampler = new OpsSampler(registry, null, Map.of("fast", dir), nanos::get);

        // Before the first sample: history that must not count.
        for (int i = 0; i < 50; i++) {
            gets.record(Duration.ofMillis(900));
        }
        assertTrue(sampler.poll().isEmpty());

        for (int i = 0; i < 90; i++) {
            gets.record(Duration.ofMillis(1));
        }
        for (int i = 0; i < 10; i++) {
            puts.record(Duration.ofMillis(200));
        }
        errors.increment(5);
        hits.addAndGet(30);
        misses.addAndGet(10);
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());
        List<OpsSampler.Sample> samples = sampler.poll();
        assertEquals(1, samples.size());
        OpsSampler.Sample s = samples.get(0);
        assertEquals(50.0, s.requestsPerSecond(), 1e-9);
        assertEquals(2.5, s.errorsPerSecond(), 1e-9);
        assertEquals(0.75, s.hitRatios().get("object cache"), 1e-9);
        assertTrue(s.p50Millis() >= 1 && s.p50Millis() < 2, "p50 " + s.p50Millis());
        assertTrue(s.p99Millis() >= 200 && s.p99Millis() < 300, "p99 " + s.p99Millis());

        // Within a second: no new sample. After: an idle interval has no percentiles or ratios.
        nanos.addAndGet(Duration.ofMillis(500).toNanos());
        assertEquals(1, sampler.poll().size());
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        OpsSampler.Sample idle = sampler.poll().get(1);
        assertEquals(0.0, idle.requestsPerSecond(), 1e-9);
        assertNull(idle.p50Millis());
        assertNull(idle.hitRatios().get("object cache"));

        Map<String, Long> fast = sampler.disk().get("fast");
        assertEquals(1000L, fast.get("used"));
        assertTrue(fast.get("total") > 0);
    }

    @Test
    void keepsTheLastSamplesOnly() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AtomicLong nanos = new AtomicLong();
        OpsSampler sampler = new OpsSampler(registry, null, Map.of(), nanos::get);
        for (int i = 0; i <= OpsSampler.KEEP + 10; i++) {
            nanos.addAndGet(Duration.ofSeconds(2).toNanos());
            sampler.poll();
        }
        assertEquals(OpsSampler.KEEP, sampler.poll().size());
    }
}
