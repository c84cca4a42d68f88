package dev.cairn.service.config;

import dev.cairn.store.cassandra.InvalidStoreSettingException;
import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Every Cairn setting, under {@code cairn.*}: the top-level ones here, each group in a class of its
 * own ({@link AuthProperties}, {@link LimitsProperties}, {@link EngineProperties},
 * {@link CacheProperties}, {@link AdminProperties}, {@link TlsProperties}, {@link ConsoleProperties}, {@link VariantsProperties};
 * the Cassandra store's beside its code, in the object store library). Each default is written once, in the class that holds it;
 * Spring's relaxed binding maps environment variables ({@code CAIRN_DATA_DIR}) and YAML onto them.
 * Invalid values fail at startup with a message naming the setting.
 */
@Validated
@ConfigurationProperties("cairn")
public class CairnProperties {

    /** The default of {@code cairn.data-dir}: {@code ./data} below the working directory. */
    public static final String DEFAULT_DATA_DIR = "data";

    /** The directory that holds everything: engine files, credentials, upload spool files. */
    private Path dataDir = Path.of(DEFAULT_DATA_DIR);

    /**
     * Domains under which buckets are addressed virtual-hosted style ({@code bucket.<domain>}).
     * Requests for any other host are path-style.
     */
    private List<String> virtualHostDomains = List.of("localhost", "s3.localhost");

    /** The region GetBucketLocation reports and clients sign for. */
    private String region = "us-east-1";

    private final AuthProperties auth = new AuthProperties();
    private final LimitsProperties limits = new LimitsProperties();
    private final EngineProperties engine = new EngineProperties();
    private final CacheProperties cache = new CacheProperties();
    private final AdminProperties admin = new AdminProperties();
    private final TlsProperties tls = new TlsProperties();

    /** The backend: {@code embedded} (the engine under the data directory) or {@code cassandra}. */
    private String store = STORE_EMBEDDED;
    private final dev.cairn.store.cassandra.CassandraSettings cassandra =
            new dev.cairn.store.cassandra.CassandraSettings();

    public static final String STORE_EMBEDDED = "embedded";
    public static final String STORE_CASSANDRA = "cassandra";

    public String getStore() {
        return store;
    }

    public void setStore(String store) {
        this.store = store;
    }

    /** The Cassandra backend's settings ({@code cairn.cassandra.*}), used when {@code cairn.store=cassandra}. */
    public dev.cairn.store.cassandra.CassandraSettings getCassandra() {
        return cassandra;
    }

    public Path getDataDir() {
        return dataDir;
    }

    public void setDataDir(Path dataDir) {
        this.dataDir = dataDir;
    }

    public List<String> getVirtualHostDomains() {
        return virtualHostDomains;
    }

    public void setVirtualHostDomains(List<String> virtualHostDomains) {
        this.virtualHostDomains = List.copyOf(virtualHostDomains);
    }

    public String getRegion() {
        return region;
    }

    public void setRegion(String region) {
        this.region = region;
    }

    public AuthProperties getAuth() {
        return auth;
    }

    public LimitsProperties getLimits() {
        return limits;
    }

    public EngineProperties getEngine() {
        return engine;
    }

    /** HTTPS ({@code cairn.tls.*}); off unless a certificate is set. */
    public TlsProperties getTls() {
        return tls;
    }

    /** The admin endpoint's settings ({@code cairn.admin.*}). */
    public AdminProperties getAdmin() {
        return admin;
    }

    public CacheProperties getCache() {
        return cache;
    }

    /** The web console ({@code cairn.console.*}, docs/console.md). */
    private final ConsoleProperties console = new ConsoleProperties();

    public ConsoleProperties getConsole() {
        return console;
    }

    /** Image variants ({@code cairn.variants.*}, docs/variants.md). */
    private final VariantsProperties variants = new VariantsProperties();

    public VariantsProperties getVariants() {
        return variants;
    }

    /** Checks every setting; called once at startup, by {@code StartupChecks}, before any bean is made. */
    public void validate() {
        require(dataDir != null, "cairn.data-dir must be set");
        require(region != null && !region.isBlank(), "cairn.region must not be blank");
        auth.validate();
        engine.validate();
        limits.validate();
        tls.validate();
        admin.validate();
        cache.validate();
        variants.validate();
        require(STORE_EMBEDDED.equals(store) || STORE_CASSANDRA.equals(store),
                "cairn.store must be embedded or cassandra, got '" + store + "'");
        if (STORE_CASSANDRA.equals(store)) {
            try {
                cassandra.validate();
            } catch (InvalidStoreSettingException e) {
                throw new InvalidSettingException(e.getMessage());
            }
        }
    }

    static void require(boolean condition, String message) {
        if (!condition) {
            throw new InvalidSettingException("invalid setting: " + message);
        }
    }
}
