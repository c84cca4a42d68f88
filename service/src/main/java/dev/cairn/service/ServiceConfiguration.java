package dev.cairn.service;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.EngineStats;
import dev.cairn.service.auth.SigV2Verifier;
import dev.cairn.service.auth.SigV4Verifier;
import dev.cairn.service.config.AuthProperties;
import dev.cairn.service.config.CacheProperties;
import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.config.EngineProperties;
import dev.cairn.service.keys.Access;
import dev.cairn.service.keys.KeyRing;
import dev.cairn.service.s3.ActuatorGuard;
import dev.cairn.service.s3.Authenticator;
import dev.cairn.service.s3.JettyS3Handler;
import dev.cairn.service.s3.LenientExpectConnectionFactory;
import dev.cairn.service.s3.MetricsAccess;
import dev.cairn.service.s3.ProtocolErrorHandler;
import dev.cairn.service.s3.S3Context;
import dev.cairn.service.s3.S3FrontDoor;
import dev.cairn.service.s3.S3Metrics;
import dev.cairn.service.s3.SigV2Authenticator;
import dev.cairn.service.s3.SigV4Authenticator;
import dev.cairn.store.CachingObjectStore;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.RowCachingObjectStore;
import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the service: engine, store, credentials, authentication, the S3 front door as a Jetty
 * handler in front of Spring's servlet context, Jetty's connector settings and the store's and
 * engine's meters.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CairnProperties.class)
public class ServiceConfiguration {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceConfiguration.class);
    static final String SPOOL_DIR = "spool";
    static final String CHECKPOINT_DIR = "checkpoints";
    static final String VARIANTS_DIR = "variants";
    static final String OWNER_NAME = "cairn";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty(name = "cairn.store",
            havingValue = CairnProperties.STORE_EMBEDDED, matchIfMissing = true)
    public Engine engine(CairnProperties props) throws IOException {
        EngineProperties e = props.getEngine();
        EngineOptions options = EngineOptions.builder(DataDirLayout.engineDir(props.getDataDir()))
                .blockCacheBytes(e.getBlockCacheSize().toBytes())
                .memtableBytes(e.getMemtableSize().toBytes())
                .syncPolicy(e.getSyncPolicy())
                .capacityDirectory(e.getCapacityDir())
                .ssdCacheBytes(e.getSsdCacheSize().toBytes())
                .reservedDiskBytes(e.getReservedDiskSize().toBytes())
                .build();
        HeapBudget.check(Runtime.getRuntime().maxMemory(), List.of(
                new HeapBudget.Part("cairn.cache.object-cache-size", props.getCache().getObjectCacheSize().toBytes()),
                new HeapBudget.Part("cairn.engine.block-cache-size", options.blockCacheBytes()),
                new HeapBudget.Part("the engine's row cache", options.rowCacheBytes()),
                new HeapBudget.Part("cairn.engine.memtable-size x " + (1 + options.maxImmutableMemtables()),
                        options.memtableBytes() * (1 + options.maxImmutableMemtables()))))
                .ifPresent(LOG::warn);
        return Engine.open(options);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty(name = "cairn.store",
            havingValue = CairnProperties.STORE_EMBEDDED, matchIfMissing = true)
    public ObjectStore objectStore(Engine engine, CairnProperties props) throws IOException {
        CacheProperties cache = props.getCache();
        EmbeddedObjectStore embedded = new EmbeddedObjectStore(engine);
        embedded.sweepEvery(props.getEngine().getSweepInterval());
        return new CachingObjectStore(embedded, cache.getObjectCacheSize().toBytes(),
                cache.getMaxCachedObjectSize().toBytes());
    }

    @Bean
    public Credentials credentials(CairnProperties props) throws IOException {
        return Credentials.load(props);
    }

    /** The keys in force: the configured admin keys and the key file's, reloaded when it changes. */
    @Bean(destroyMethod = "close")
    public KeyRing keyRing(Credentials credentials, CairnProperties props) throws IOException {
        AuthProperties auth = props.getAuth();
        KeyRing ring = new KeyRing(credentials.adminKeys(), auth.getKeysFile(), auth.isKeysFileGroupReadable());
        ring.watch(auth.getKeysReloadInterval());
        return ring;
    }

    @Bean
    @ConditionalOnMissingBean
    public Authenticator authenticator(KeyRing keys, CairnProperties props) {
        AuthProperties auth = props.getAuth();
        SigV2Verifier signatureV2 = auth.isSignatureV2()
                ? new SigV2Verifier(keys, Clock.systemUTC(), auth.getMaxClockSkew()) : null;
        return new SigV4Authenticator(new SigV4Verifier(keys, props.getRegion(), Clock.systemUTC(),
                auth.getMaxClockSkew()), new SigV2Authenticator(signatureV2, props.getVirtualHostDomains()));
    }

    @Bean
    public S3Metrics s3Metrics(MeterRegistry registry) {
        return new S3Metrics(registry);
    }

    @Bean
    public S3Context s3Context(ObjectStore store, Authenticator authenticator, CairnProperties props) throws IOException {
        Path spool = props.getDataDir().resolve(SPOOL_DIR);
        Files.createDirectories(spool);
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(spool, "upload-*.spool")) {
            for (Path p : leftovers) {
                Files.deleteIfExists(p);
            }
        }
        return new S3Context(store, authenticator, props, spool, ownerId(), OWNER_NAME);
    }

    /** A stable owner id: S3 clients show it, none interprets it. */
    static String ownerId() {
        return dev.cairn.store.Hex.encode(
                java.util.Arrays.copyOf(OWNER_NAME.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 32));
    }

    @Bean(destroyMethod = "close")
    @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty(name = "cairn.store",
            havingValue = CairnProperties.STORE_EMBEDDED, matchIfMissing = true)
    public dev.cairn.service.admin.Checkpoints checkpoints(Engine engine, CairnProperties props) throws IOException {
        return new dev.cairn.service.admin.Checkpoints(engine, props.getDataDir().resolve(CHECKPOINT_DIR),
                props.getAdmin().getCheckpointLease(), Clock.systemUTC());
    }

    @Bean
    public S3FrontDoor s3FrontDoor(S3Context ctx, S3Metrics metrics, Authenticator authenticator, KeyRing keys,
                                   org.springframework.beans.factory.ObjectProvider<dev.cairn.service.admin.Checkpoints> checkpoints,
                                   dev.cairn.service.variants.VariantService variants) {
        return new S3FrontDoor(ctx, metrics, new dev.cairn.service.admin.AdminEndpoint(authenticator,
                checkpoints.getIfAvailable(), accessKey -> keys.allows(accessKey, Access.CHECKPOINTS, null)), keys, variants);
    }

    /** Image variants (docs/variants.md), kept under {@code <data-dir>/variants}. */
    @Bean(destroyMethod = "close")
    public dev.cairn.service.variants.VariantService variantService(CairnProperties props, ObjectStore store) throws IOException {
        return new dev.cairn.service.variants.VariantService(props.getVariants(), props.getDataDir().resolve(VARIANTS_DIR), store);
    }

    /**
     * S3 requests are answered by a Jetty core handler placed right in front of the servlet
     * context (inside Spring's own wrappers, so graceful shutdown still counts them); only
     * {@code /actuator} reaches the servlet layer and Spring.
     */
    @Bean
    public WebServerFactoryCustomizer<JettyServletWebServerFactory> s3Handler(S3FrontDoor frontDoor, Authenticator authenticator,
                                                                          KeyRing keys) {
        return factory -> factory.addServerCustomizers(server -> {
            Handler.Singleton parent = server;
            while (!(parent.getHandler() instanceof ServletContextHandler)
                    && parent.getHandler() instanceof Handler.Singleton child) {
                parent = child;
            }
            // Only what JettyS3Handler passes on (the actuator of the S3 port) meets the guard.
            parent.setHandler(new JettyS3Handler(frontDoor,
                    new ActuatorGuard(new MetricsAccess(authenticator, keys), parent.getHandler())));
        });
    }

    @Bean
    public WebServerFactoryCustomizer<JettyServletWebServerFactory> jettyTuning(CairnProperties props, S3Metrics metrics) {
        int headerBytes = (int) props.getLimits().getMaxHeaderSize().toBytes();
        return factory -> factory.addServerCustomizers(server -> {
            server.setErrorHandler(new ProtocolErrorHandler(server.getErrorHandler(), metrics));
            for (Connector c : server.getConnectors()) {
                if (c instanceof ServerConnector sc) {
                    sc.setAcceptedTcpNoDelay(true);
                }
                HttpConnectionFactory http = c.getConnectionFactory(HttpConnectionFactory.class);
                if (http != null) {
                    HttpConfiguration hc = http.getHttpConfiguration();
                    hc.setRequestHeaderSize(headerBytes);
                    hc.setSendServerVersion(false);
                    hc.setSendXPoweredBy(false);
                    // Keys are any UTF-8: "..", "//" and encoded slashes are names, never paths.
                    hc.setUriCompliance(UriCompliance.UNSAFE);
                    // Jetty's header cache would hand "text/plain; charset=utf-8" on as its own
                    // cached spelling: values must stay as sent, they are signed and stored.
                    hc.setHeaderCacheCaseSensitive(true);
                    // Jetty's per-connection cache of header fields takes each new Authorization
                    // value in (about 200 bytes, a new one on every signed request), so the cache
                    // fills and is wiped every few requests: a fifth of a header-signed GET's CPU.
                    hc.setHeaderCacheSize(0);
                    if (c instanceof AbstractConnector ac && !(http instanceof LenientExpectConnectionFactory)) {
                        // S3 ignores an Expect it does not know; Jetty would answer 417.
                        ac.addConnectionFactory(LenientExpectConnectionFactory.replacing(http));
                    }
                }
            }
            for (ServletContextHandler h : server.getDescendants(ServletContextHandler.class)) {
                h.getServletHandler().setDecodeAmbiguousURIs(true);
                // Nothing is served from WEB-INF or META-INF, and "web-inf" is a valid bucket name;
                // the check also costs a trie walk on every request.
                h.setProtectedTargets(null);
            }
        });
    }

    /** The shared memory of upload bodies (cairn.limits.spool-memory-budget): held now, and bodies spooled for want of it. */
    @Bean
    public MeterBinder uploadMemoryMeters(S3Context ctx) {
        dev.cairn.service.s3.MemoryBudget budget = ctx.spool().budget();
        return registry -> {
            Gauge.builder("cairn.upload.memory.used", budget, dev.cairn.service.s3.MemoryBudget::used)
                    .baseUnit("bytes").description("upload bodies held in memory now").register(registry);
            Gauge.builder("cairn.upload.memory.budget", budget, dev.cairn.service.s3.MemoryBudget::capacity)
                    .baseUnit("bytes").register(registry);
            FunctionCounter.builder("cairn.upload.memory.refusals", budget, dev.cairn.service.s3.MemoryBudget::refusals)
                    .description("upload bodies spooled to a file because the memory budget was spent")
                    .register(registry);
        };
    }

    /** Answers written without holding a thread, waiting on their readers (cairn.limits.pending-answer-bytes). */
    @Bean
    public MeterBinder pendingAnswerMeters(S3FrontDoor frontDoor) {
        dev.cairn.service.s3.PendingAnswers budget = frontDoor.pendingAnswers();
        return registry -> {
            Gauge.builder("cairn.answers.pending.bytes", budget, dev.cairn.service.s3.PendingAnswers::used)
                    .baseUnit("bytes").description("bytes of answers read from the store and not yet taken by their readers")
                    .register(registry);
            FunctionCounter.builder("cairn.answers.pending.refusals", budget, dev.cairn.service.s3.PendingAnswers::refusals)
                    .description("answers written holding their thread because the pending-answer budget was spent")
                    .register(registry);
        };
    }

    @Bean
    public MeterBinder storeAndEngineMeters(ObjectStore store,
                                            org.springframework.beans.factory.ObjectProvider<Engine> engines) {
        return registry -> {
            Gauge.builder("cairn.store.dedup.ratio", store, s -> s.stats().dedupRatio())
                    .description("content bytes written over content bytes stored since start").register(registry);
            FunctionCounter.builder("cairn.store.bytes.logical", store, s -> s.stats().logicalBytesWritten())
                    .baseUnit("bytes").register(registry);
            FunctionCounter.builder("cairn.store.bytes.physical", store, s -> s.stats().physicalBytesWritten())
                    .baseUnit("bytes").register(registry);
            if (store instanceof CachingObjectStore cached) {
                FunctionCounter.builder("cairn.cache.objects.hits", cached, c -> c.cacheStats().hitCount())
                        .description("GETs answered from the hot object cache").register(registry);
                FunctionCounter.builder("cairn.cache.objects.misses", cached, c -> c.cacheStats().missCount())
                        .register(registry);
                Gauge.builder("cairn.cache.objects.bytes", cached, CachingObjectStore::cachedBytes)
                        .baseUnit("bytes").register(registry);
                Gauge.builder("cairn.cache.objects.offheap", cached, CachingObjectStore::offHeapBytes)
                        .description("cached objects' bytes kept off the heap and not yet freed")
                        .baseUnit("bytes").register(registry);
            }
            if (store instanceof RowCachingObjectStore rows) {
                rowCacheMeters(registry, rows);
            }
            Engine engine = engines.getIfAvailable();
            if (engine == null) {
                return;
            }
            engineGauge(registry, engine, "cairn.engine.memtable.bytes", EngineStats::memtableBytes);
            engineGauge(registry, engine, "cairn.engine.value.bytes", EngineStats::valueBytes);
            engineGauge(registry, engine, "cairn.engine.value.garbage.bytes", EngineStats::valueGarbageBytes);
            engineGauge(registry, engine, "cairn.engine.index.filter.bytes", EngineStats::indexAndFilterBytes);
            engineGauge(registry, engine, "cairn.engine.block.cache.hits", EngineStats::blockCacheHits);
            engineGauge(registry, engine, "cairn.engine.block.cache.misses", EngineStats::blockCacheMisses);
            engineGauge(registry, engine, "cairn.engine.flushes", EngineStats::flushes);
            engineGauge(registry, engine, "cairn.engine.compactions", EngineStats::compactions);
            engineGauge(registry, engine, "cairn.engine.compaction.bytes.written", EngineStats::compactionBytesWritten);
            engineGauge(registry, engine, "cairn.engine.write.stalls", EngineStats::writeStalls);
            engineGauge(registry, engine, "cairn.engine.user.bytes.written", EngineStats::userBytesWritten);
        };
    }

    private static void rowCacheMeters(MeterRegistry registry, RowCachingObjectStore rows) {
        FunctionCounter.builder("cairn.row.cache.row.hits", rows, r -> r.cacheStats().rowHits())
                .description("object rows answered from the row cache").register(registry);
        FunctionCounter.builder("cairn.row.cache.row.misses", rows, r -> r.cacheStats().rowMisses())
                .register(registry);
        FunctionCounter.builder("cairn.row.cache.content.hits", rows, r -> r.cacheStats().contentHits())
                .description("content answered from the row cache by digest").register(registry);
        FunctionCounter.builder("cairn.row.cache.content.misses", rows, r -> r.cacheStats().contentMisses())
                .register(registry);
        Gauge.builder("cairn.row.cache.hit.ratio", rows, r -> r.cacheStats().hitRatio())
                .description("row and content hits over lookups since start").register(registry);
        Gauge.builder("cairn.row.cache.trusted", rows, r -> r.cacheStats().trusted() ? 1 : 0)
                .description("1 while cached object rows are served, 0 while bypassed").register(registry);
        Gauge.builder("cairn.row.cache.ssd.hits", rows, r -> r.tierStats().ssdHits()).register(registry);
        Gauge.builder("cairn.row.cache.memory.bytes", rows, r -> r.tierStats().memoryBytes())
                .baseUnit("bytes").register(registry);
        Gauge.builder("cairn.row.cache.ssd.bytes", rows, r -> r.tierStats().ssdBytes())
                .baseUnit("bytes").register(registry);
    }

    private static void engineGauge(MeterRegistry registry, Engine engine, String name,
                                    ToDoubleFunction<EngineStats> value) {
        Gauge.builder(name, engine, e -> value.applyAsDouble(e.stats())).register(registry);
    }
}
