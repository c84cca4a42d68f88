package dev.cairn.store.cassandra;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of the Cassandra store, bound under {@code cairn.cassandra.*}. Every default
 * points at the local cluster of {@code bin/cairn cassandra start}, so that
 * {@code CAIRN_STORE=cassandra bin/cairn serve} needs no other setting.
 *
 * <p>Thread-safety: a mutable bean, filled once at startup and read afterwards.
 */
public class CassandraSettings {
    public static final List<String> DEFAULT_CONTACT_POINTS = List.of("127.0.0.21:9042", "127.0.0.22:9042");
    public static final String DEFAULT_LOCAL_DATACENTER = "serving";
    public static final String DEFAULT_KEYSPACE = "cairn";
    public static final Map<String, Integer> DEFAULT_REPLICATION = Map.of("serving", 2, "backup", 1);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_SCHEMA_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_BUCKET_CACHE_TTL = Duration.ofSeconds(1);

    /** Consistency of writes. */
    public enum WriteConsistency {
        /** A quorum of the local datacenter's replicas. */
        LOCAL_QUORUM,
        /** A quorum in every datacenter: a write survives the loss of the local one. */
        EACH_QUORUM
    }

    /** Consistency of reads that serve data (object rows, content, listings). */
    public enum ReadConsistency {
        /** A quorum of the local replicas: sees every acknowledged write. */
        LOCAL_QUORUM,
        /**
         * One local replica: reads go on with a replica down, and may briefly miss a recent
         * write. Content is addressed by digest and checked, so a read never returns wrong bytes.
         */
        LOCAL_ONE
    }

    /** host:port of nodes to reach first; the driver discovers the rest. */
    private List<String> contactPoints = DEFAULT_CONTACT_POINTS;
    /** The datacenter the service uses; it never sends requests to another. */
    private String localDatacenter = DEFAULT_LOCAL_DATACENTER;
    /** The keyspace of Cairn's tables. */
    private String keyspace = DEFAULT_KEYSPACE;
    /** Replicas per datacenter (NetworkTopologyStrategy), used when the keyspace is created. */
    private Map<String, Integer> replication = new LinkedHashMap<>(DEFAULT_REPLICATION);
    private WriteConsistency writeConsistency = WriteConsistency.LOCAL_QUORUM;
    private ReadConsistency readConsistency = ReadConsistency.LOCAL_QUORUM;
    /** How long one request may take, retries included, before it fails (503 to the client). */
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    /**
     * How long a bucket's row (its existence and ACL) read from the cluster is reused by this
     * node; this node's own bucket changes apply at once, other nodes' after at most this. 0: every
     * check reads the cluster.
     */
    private Duration bucketCacheTtl = DEFAULT_BUCKET_CACHE_TTL;
    /** How long connecting to a node may take. */
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    /** How long a schema change may wait for all nodes to agree. */
    private Duration schemaTimeout = DEFAULT_SCHEMA_TIMEOUT;
    /** Create the keyspace and tables on start when missing; when false, only verify they exist. */
    private boolean createSchema = true;
    /** With {@link #password}: log in with Cassandra's password authenticator; unset: no login. */
    private String username;
    private String password;
    private final CassandraCacheSettings cache = new CassandraCacheSettings();

    /** The row cache in front of the store ({@code cairn.cassandra.cache.*}). */
    public String getUsername() {
        return username;
    }

    public void setUsername(String v) {
        username = v;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String v) {
        password = v;
    }

    /** Hides the password when settings are printed or logged. */
    @Override
    public String toString() {
        return "CassandraSettings[contactPoints=" + contactPoints + ", localDatacenter=" + localDatacenter
                + ", keyspace=" + keyspace + ", username=" + username + ", password=" + (password == null ? "unset" : "****") + "]";
    }

    public CassandraCacheSettings getCache() {
        return cache;
    }

    public List<String> getContactPoints() {
        return contactPoints;
    }

    public void setContactPoints(List<String> v) {
        contactPoints = List.copyOf(v);
    }

    public String getLocalDatacenter() {
        return localDatacenter;
    }

    public void setLocalDatacenter(String v) {
        localDatacenter = v;
    }

    public String getKeyspace() {
        return keyspace;
    }

    public void setKeyspace(String v) {
        keyspace = v;
    }

    public Map<String, Integer> getReplication() {
        return replication;
    }

    public void setReplication(Map<String, Integer> v) {
        replication = new LinkedHashMap<>(v);
    }

    public WriteConsistency getWriteConsistency() {
        return writeConsistency;
    }

    public void setWriteConsistency(WriteConsistency v) {
        writeConsistency = v;
    }

    public ReadConsistency getReadConsistency() {
        return readConsistency;
    }

    public void setReadConsistency(ReadConsistency v) {
        readConsistency = v;
    }

    public Duration getBucketCacheTtl() {
        return bucketCacheTtl;
    }

    public void setBucketCacheTtl(Duration v) {
        bucketCacheTtl = v;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration v) {
        requestTimeout = v;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration v) {
        connectTimeout = v;
    }

    public Duration getSchemaTimeout() {
        return schemaTimeout;
    }

    public void setSchemaTimeout(Duration v) {
        schemaTimeout = v;
    }

    public boolean isCreateSchema() {
        return createSchema;
    }

    public void setCreateSchema(boolean v) {
        createSchema = v;
    }

    /** Checks every setting; throws {@link InvalidStoreSettingException} naming the first bad one. */
    public void validate() {
        require(contactPoints != null && !contactPoints.isEmpty(), "cairn.cassandra.contact-points must not be empty");
        for (String cp : contactPoints) {
            int colon = cp.lastIndexOf(':');
            require(colon > 0 && cp.substring(colon + 1).matches("[0-9]{1,5}"),
                    "cairn.cassandra.contact-points entries are host:port, got '" + cp + "'");
        }
        require(localDatacenter != null && !localDatacenter.isBlank(), "cairn.cassandra.local-datacenter must be set");
        require(keyspace != null && keyspace.matches("[a-z][a-z0-9_]{0,47}"),
                "cairn.cassandra.keyspace must be a lower-case CQL identifier, got '" + keyspace + "'");
        require(replication != null && !replication.isEmpty(), "cairn.cassandra.replication must name a datacenter");
        for (Map.Entry<String, Integer> e : replication.entrySet()) {
            require(e.getKey().matches("[A-Za-z0-9_.-]+") && e.getValue() != null && e.getValue() >= 1,
                    "cairn.cassandra.replication." + e.getKey() + " must be at least 1");
        }
        require(replication.containsKey(localDatacenter),
                "cairn.cassandra.replication must place replicas in the local datacenter " + localDatacenter);
        require(positive(requestTimeout), "cairn.cassandra.request-timeout must be positive");
        require(bucketCacheTtl != null && !bucketCacheTtl.isNegative(), "cairn.cassandra.bucket-cache-ttl must not be negative");
        require(positive(connectTimeout), "cairn.cassandra.connect-timeout must be positive");
        require(positive(schemaTimeout), "cairn.cassandra.schema-timeout must be positive");
        cache.validate();
    }

    private static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero();
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new InvalidStoreSettingException("invalid setting: " + message);
        }
    }
}
