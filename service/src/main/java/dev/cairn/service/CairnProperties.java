package dev.cairn.service;

import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Every Cairn setting, under {@code cairn.*}. Each default is written once, here; Spring's
 * relaxed binding maps environment variables ({@code CAIRN_DATA_DIR}) and YAML onto it.
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

    private final Auth auth = new Auth();
    private final Limits limits = new Limits();
    private final Engine engine = new Engine();
    private final Cache cache = new Cache();
    private final Admin admin = new Admin();
    private final Tls tls = new Tls();

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

    public Auth getAuth() {
        return auth;
    }

    public Limits getLimits() {
        return limits;
    }

    public Engine getEngine() {
        return engine;
    }

    /** HTTPS ({@code cairn.tls.*}); off unless a certificate is set. */
    public Tls getTls() {
        return tls;
    }

    /** The admin endpoint's settings ({@code cairn.admin.*}). */
    public Admin getAdmin() {
        return admin;
    }

    /** The admin endpoint ({@code /_admin/...}): engine checkpoints for backups. */
    public static class Admin {
        /**
         * How long a checkpoint is kept when the job that took it never releases it (a crashed
         * backup); the service then deletes it.
         */
        private java.time.Duration checkpointLease = java.time.Duration.ofHours(6);

        public java.time.Duration getCheckpointLease() {
            return checkpointLease;
        }

        public void setCheckpointLease(java.time.Duration v) {
            checkpointLease = v;
        }
    }

    /**
     * HTTPS on the service's port ({@code server.port}), from PEM files that are reloaded when they
     * change. {@link TlsEnvironment} turns these settings into Spring Boot's SSL bundle
     * {@value TlsEnvironment#BUNDLE}.
     */
    public static class Tls {
        /** The default of {@code cairn.tls.http-address}. */
        public static final String DEFAULT_HTTP_ADDRESS = "127.0.0.1";

        /** The server's certificate chain (PEM), leaf first; setting it turns HTTPS on. */
        private Path certificate;
        /** The private key of the certificate (PEM, PKCS#8 or PKCS#1, EC or RSA). */
        private Path privateKey;
        /** The password of an encrypted private key; unset: the key is not encrypted. Never logged. */
        private String privateKeyPassword;
        /** A port for plain HTTP besides HTTPS, on {@link #httpAddress} only; unset: none. */
        private Integer httpPort;
        /** Where plain HTTP listens; must be a loopback address. */
        private String httpAddress = DEFAULT_HTTP_ADDRESS;

        public boolean isEnabled() {
            return certificate != null;
        }

        public Path getCertificate() {
            return certificate;
        }

        public void setCertificate(Path v) {
            certificate = v;
        }

        public Path getPrivateKey() {
            return privateKey;
        }

        public void setPrivateKey(Path v) {
            privateKey = v;
        }

        public String getPrivateKeyPassword() {
            return privateKeyPassword;
        }

        public void setPrivateKeyPassword(String v) {
            privateKeyPassword = v;
        }

        public Integer getHttpPort() {
            return httpPort;
        }

        public void setHttpPort(Integer v) {
            httpPort = v;
        }

        public String getHttpAddress() {
            return httpAddress;
        }

        public void setHttpAddress(String v) {
            httpAddress = v;
        }

        /** Checks the TLS settings; the files themselves are read and checked by the SSL bundle. */
        public void validate() {
            require((certificate == null) == (privateKey == null),
                    "cairn.tls.certificate and cairn.tls.private-key must be set together");
            if (httpPort == null) {
                return;
            }
            require(isEnabled(), "cairn.tls.http-port is plain HTTP besides HTTPS and needs cairn.tls.certificate;"
                    + " without TLS the service already speaks plain HTTP on server.port");
            require(httpPort >= 0 && httpPort <= 65535, "cairn.tls.http-port must be in [0, 65535]");
            require(isLoopback(httpAddress), "cairn.tls.http-address must be a loopback address (127.0.0.1, ::1,"
                    + " localhost), got '" + httpAddress + "': plain HTTP carries object data in clear text");
        }

        private static boolean isLoopback(String address) {
            if (address == null || address.isBlank()) {
                return false;
            }
            try {
                return java.net.InetAddress.getByName(address).isLoopbackAddress();
            } catch (java.net.UnknownHostException e) {
                return false;
            }
        }

        @Override
        public String toString() {
            return "Tls[certificate=" + certificate + ", privateKey=" + privateKey + ", privateKeyPassword="
                    + (privateKeyPassword == null ? null : "(hidden)") + ", httpPort=" + httpPort
                    + ", httpAddress=" + httpAddress + "]";
        }
    }

    public Cache getCache() {
        return cache;
    }

    /** The service's hot object cache, in front of the store (the engine keeps its own caches). */
    public static class Cache {
        /** Memory for whole small objects (row and bytes); 0 disables the cache. */
        private DataSize objectCacheSize = DataSize.ofMegabytes(256);
        /** Objects up to this size are cached; larger ones always stream from the store. */
        private DataSize maxCachedObjectSize = DataSize.ofMegabytes(1);

        public DataSize getObjectCacheSize() {
            return objectCacheSize;
        }

        public void setObjectCacheSize(DataSize v) {
            objectCacheSize = v;
        }

        public DataSize getMaxCachedObjectSize() {
            return maxCachedObjectSize;
        }

        public void setMaxCachedObjectSize(DataSize v) {
            maxCachedObjectSize = v;
        }
    }

    /** Credentials. With none configured, a pair is generated on first start into the data directory. */
    public static class Auth {
        /** The access key of the one configured pair; needs {@link #secretKey}. */
        private String accessKey;
        /** The secret of {@link #accessKey}. Never logged. */
        private String secretKey;
        /**
         * A properties file of {@code accessKey=secretKey} lines, for several pairs; read at
         * startup. Used together with the single pair when both are set.
         */
        private Path credentialsFile;
        /** Requests whose signing time differs from the server clock by more than this are refused. */
        private java.time.Duration maxClockSkew = dev.cairn.service.auth.SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW;
        /**
         * The key file: access keys with roles per bucket (docs/format/keys.md, docs/security.md),
         * read again when it changes. Mode 0600: a file others can read stops the start.
         */
        private Path keysFile;
        /** How often the key file is checked for changes. */
        private java.time.Duration keysReloadInterval = java.time.Duration.ofSeconds(2);
        /**
         * Accept a key file its group can read: Kubernetes secret volumes of a pod with an
         * {@code fsGroup} are mode 0440 whatever {@code defaultMode} says. Never world-readable.
         */
        private boolean keysFileGroupReadable;

        public Path getKeysFile() {
            return keysFile;
        }

        public void setKeysFile(Path keysFile) {
            this.keysFile = keysFile;
        }

        public java.time.Duration getKeysReloadInterval() {
            return keysReloadInterval;
        }

        public void setKeysReloadInterval(java.time.Duration keysReloadInterval) {
            this.keysReloadInterval = keysReloadInterval;
        }

        public boolean isKeysFileGroupReadable() {
            return keysFileGroupReadable;
        }

        public void setKeysFileGroupReadable(boolean keysFileGroupReadable) {
            this.keysFileGroupReadable = keysFileGroupReadable;
        }

        public String getAccessKey() {
            return accessKey;
        }

        public void setAccessKey(String accessKey) {
            this.accessKey = accessKey;
        }

        public String getSecretKey() {
            return secretKey;
        }

        public void setSecretKey(String secretKey) {
            this.secretKey = secretKey;
        }

        public Path getCredentialsFile() {
            return credentialsFile;
        }

        public void setCredentialsFile(Path credentialsFile) {
            this.credentialsFile = credentialsFile;
        }

        public java.time.Duration getMaxClockSkew() {
            return maxClockSkew;
        }

        public void setMaxClockSkew(java.time.Duration maxClockSkew) {
            this.maxClockSkew = maxClockSkew;
        }

        @Override
        public String toString() {
            return "Auth[accessKey=" + accessKey + ", secretKey=" + (secretKey == null ? null : "(hidden)")
                    + ", credentialsFile=" + credentialsFile + ", keysFile=" + keysFile + "]";
        }
    }

    /** Request limits; each answers with its S3 error when exceeded. */
    public static class Limits {
        /** Largest object or part body (EntityTooLarge). S3's single PUT limit is 5 GiB. */
        private DataSize maxObjectSize = DataSize.ofGigabytes(5);
        /** Keys one DeleteObjects request may name (MalformedXML above it, as S3). */
        private int maxDeleteKeys = 1000;
        /** Highest part number of a multipart upload. */
        private int maxParts = 10000;
        /** Smallest part other than the last (EntityTooSmall). S3 uses 5 MiB. */
        private DataSize minPartSize = DataSize.ofMegabytes(5);
        /** Largest request line and headers together; larger requests get 431. */
        private DataSize maxHeaderSize = DataSize.ofKilobytes(16);
        /** Largest XML request body (DeleteObjects, CompleteMultipartUpload, ACLs). */
        private DataSize maxXmlBodySize = DataSize.ofMegabytes(2);
        /** Upload bodies up to this size are held in memory; larger ones spool to a file. */
        private DataSize spoolMemoryThreshold = DataSize.ofKilobytes(256);
        /**
         * Memory for upload bodies held in memory, all requests together; a body that finds it
         * spent spools to a file whatever its size.
         */
        private DataSize spoolMemoryBudget = DataSize.ofMegabytes(64);
        /**
         * Answers of more than 1 MiB streamed from the store at once; more are refused with 503
         * SlowDown, so that slow readers cannot hold every request thread.
         */
        private int maxStreamingReads = 100;
        /**
         * Memory for answers of 1 MiB or less read from the store and written without holding a
         * thread, all slow readers together; past it such answers are written holding their
         * thread, as larger ones are. Answers from the object cache share its bytes and count them once.
         */
        private DataSize pendingAnswerBytes = DataSize.ofMegabytes(64);

        public DataSize getMaxObjectSize() {
            return maxObjectSize;
        }

        public void setMaxObjectSize(DataSize v) {
            maxObjectSize = v;
        }

        public int getMaxDeleteKeys() {
            return maxDeleteKeys;
        }

        public void setMaxDeleteKeys(int v) {
            maxDeleteKeys = v;
        }

        public int getMaxParts() {
            return maxParts;
        }

        public void setMaxParts(int v) {
            maxParts = v;
        }

        public DataSize getMinPartSize() {
            return minPartSize;
        }

        public void setMinPartSize(DataSize v) {
            minPartSize = v;
        }

        public DataSize getMaxHeaderSize() {
            return maxHeaderSize;
        }

        public void setMaxHeaderSize(DataSize v) {
            maxHeaderSize = v;
        }

        public DataSize getMaxXmlBodySize() {
            return maxXmlBodySize;
        }

        public void setMaxXmlBodySize(DataSize v) {
            maxXmlBodySize = v;
        }

        public DataSize getSpoolMemoryThreshold() {
            return spoolMemoryThreshold;
        }

        public void setSpoolMemoryThreshold(DataSize v) {
            spoolMemoryThreshold = v;
        }

        public int getMaxStreamingReads() {
            return maxStreamingReads;
        }

        public void setMaxStreamingReads(int v) {
            maxStreamingReads = v;
        }

        public DataSize getPendingAnswerBytes() {
            return pendingAnswerBytes;
        }

        public void setPendingAnswerBytes(DataSize v) {
            pendingAnswerBytes = v;
        }

        public DataSize getSpoolMemoryBudget() {
            return spoolMemoryBudget;
        }

        public void setSpoolMemoryBudget(DataSize v) {
            spoolMemoryBudget = v;
        }

        void validate() {
            require(maxObjectSize.toBytes() > 0, "cairn.limits.max-object-size must be positive");
            require(maxDeleteKeys >= 1, "cairn.limits.max-delete-keys must be at least 1");
            require(maxParts >= 1 && maxParts <= 10000, "cairn.limits.max-parts must be in [1, 10000]");
            require(minPartSize.toBytes() >= 0, "cairn.limits.min-part-size must not be negative");
            require(maxHeaderSize.toBytes() >= 1024, "cairn.limits.max-header-size must be at least 1KB");
            require(maxXmlBodySize.toBytes() >= 1024, "cairn.limits.max-xml-body-size must be at least 1KB");
            require(spoolMemoryThreshold.toBytes() >= 0 && spoolMemoryThreshold.toBytes() <= (64L << 20),
                    "cairn.limits.spool-memory-threshold must be in [0, 64MB]");
            require(spoolMemoryBudget.toBytes() >= 0, "cairn.limits.spool-memory-budget must not be negative");
            require(maxStreamingReads >= 1, "cairn.limits.max-streaming-reads must be at least 1");
            require(pendingAnswerBytes.toBytes() >= 0, "cairn.limits.pending-answer-bytes must not be negative");
        }
    }

    /** Engine settings Cairn exposes; the rest keep the engine's own defaults. */
    public static class Engine {
        /** Memory for the engine's block cache. */
        private DataSize blockCacheSize = DataSize.ofBytes(dev.cairn.engine.EngineOptions.DEFAULT_BLOCK_CACHE_BYTES);
        /** Memtable size before a flush. */
        private DataSize memtableSize = DataSize.ofBytes(dev.cairn.engine.EngineOptions.DEFAULT_MEMTABLE_BYTES);
        /** When writes become durable: EVERY_WRITE (acknowledged = synced) or PERIODIC. */
        private dev.cairn.engine.SyncPolicy syncPolicy = dev.cairn.engine.EngineOptions.DEFAULT_SYNC_POLICY;
        /**
         * How often the embedded store sweeps up what interrupted writes left (it also sweeps on
         * open); 0 sweeps on open only.
         */
        private java.time.Duration sweepInterval = java.time.Duration.ofHours(1);
        /** The capacity tier's directory (old levels, value files); unset: the fast tier's. */
        private java.nio.file.Path capacityDir;
        /** The engine's SSD row cache on the fast tier; 0: memory only. */
        private DataSize ssdCacheSize = DataSize.ofBytes(dev.cairn.engine.EngineOptions.DEFAULT_SSD_CACHE_BYTES);
        /** Free disk space writes leave alone (deletes may use most of it); see docs/reliability.md. */
        private DataSize reservedDiskSize = DataSize.ofBytes(dev.cairn.engine.EngineOptions.DEFAULT_RESERVED_DISK_BYTES);

        public DataSize getReservedDiskSize() {
            return reservedDiskSize;
        }

        public void setReservedDiskSize(DataSize v) {
            reservedDiskSize = v;
        }

        public java.nio.file.Path getCapacityDir() {
            return capacityDir;
        }

        public void setCapacityDir(java.nio.file.Path v) {
            capacityDir = v;
        }

        public DataSize getSsdCacheSize() {
            return ssdCacheSize;
        }

        public void setSsdCacheSize(DataSize v) {
            ssdCacheSize = v;
        }

        public java.time.Duration getSweepInterval() {
            return sweepInterval;
        }

        public void setSweepInterval(java.time.Duration v) {
            sweepInterval = v;
        }

        public DataSize getBlockCacheSize() {
            return blockCacheSize;
        }

        public void setBlockCacheSize(DataSize v) {
            blockCacheSize = v;
        }

        public DataSize getMemtableSize() {
            return memtableSize;
        }

        public void setMemtableSize(DataSize v) {
            memtableSize = v;
        }

        public dev.cairn.engine.SyncPolicy getSyncPolicy() {
            return syncPolicy;
        }

        public void setSyncPolicy(dev.cairn.engine.SyncPolicy v) {
            syncPolicy = v;
        }
    }

    /** The web console ({@code cairn.console.*}, docs/console.md). */
    private final dev.cairn.service.console.ConsoleSettings console = new dev.cairn.service.console.ConsoleSettings();

    public dev.cairn.service.console.ConsoleSettings getConsole() {
        return console;
    }

    /** Checks every setting; called once at startup. */
    public void validate() {
        require(dataDir != null, "cairn.data-dir must be set");
        require(region != null && !region.isBlank(), "cairn.region must not be blank");
        require((auth.accessKey == null) == (auth.secretKey == null),
                "cairn.auth.access-key and cairn.auth.secret-key must be set together");
        require(engine.ssdCacheSize != null && engine.ssdCacheSize.toBytes() >= 0,
                "cairn.engine.ssd-cache-size must not be negative");
        require(engine.sweepInterval != null && !engine.sweepInterval.isNegative(),
                "cairn.engine.sweep-interval must not be negative");
        require(auth.maxClockSkew != null && !auth.maxClockSkew.isNegative(),
                "cairn.auth.max-clock-skew must not be negative");
        limits.validate();
        tls.validate();
        require(admin.checkpointLease != null && admin.checkpointLease.toSeconds() >= 1,
                "cairn.admin.checkpoint-lease must be at least 1s");
        require(cache.objectCacheSize.toBytes() >= 0, "cairn.cache.object-cache-size must not be negative");
        require(cache.maxCachedObjectSize.toBytes() >= 0 && cache.maxCachedObjectSize.toBytes() <= (64L << 20),
                "cairn.cache.max-cached-object-size must be in [0, 64MB]");
        require(STORE_EMBEDDED.equals(store) || STORE_CASSANDRA.equals(store),
                "cairn.store must be embedded or cassandra, got '" + store + "'");
        if (STORE_CASSANDRA.equals(store)) {
            cassandra.validate();
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException("invalid setting: " + message);
        }
    }
}
