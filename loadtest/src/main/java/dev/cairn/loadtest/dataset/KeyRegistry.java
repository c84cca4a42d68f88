package dev.cairn.loadtest.dataset;

import java.util.List;
import java.util.Map;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The dataset's key list in Redis, as the classified-ads portal study's load generator kept it (docs/references.md): a run picks keys by
 * index without listing millions of names from the store. Layout, for dataset {@code D}:
 * hash {@code cairn:loadtest:D:meta} holds the {@link DatasetSpec} fields; hash
 * {@code cairn:loadtest:D:keys} maps each index (decimal) to its key.
 *
 * <p>Thread-safety: safe for concurrent use (a connection pool underneath).
 */
public final class KeyRegistry implements AutoCloseable {

    /** The default Redis address. */
    public static final String DEFAULT_ADDRESS = "127.0.0.1:6379";

    private static final int BATCH = 5_000;

    private final String address;
    private final JedisPooled redis;

    private KeyRegistry(String address, JedisPooled redis) {
        this.address = address;
        this.redis = redis;
    }

    /**
     * Connects and checks that Redis answers.
     *
     * @throws RegistryUnavailableException with a message that says what to do when it does not
     */
    public static KeyRegistry connect(String address) {
        HostAndPort hp = parse(address);
        JedisPooled redis = new JedisPooled(hp, DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(2_000).socketTimeoutMillis(30_000).build());
        try {
            redis.ping();
        } catch (JedisException e) {
            redis.close();
            throw unavailable(address, e);
        }
        return new KeyRegistry(address, redis);
    }

    public String address() {
        return address;
    }

    /** Forgets dataset {@code name} entirely. */
    public void clear(String name) {
        call(() -> redis.del(meta(name), keys(name)));
    }

    /** Records the dataset's description (its count is what has been registered so far). */
    public void describe(DatasetSpec spec) {
        call(() -> redis.hset(meta(spec.name()), spec.toFields()));
    }

    /** Records that a run overwrote objects, so their content is no longer the load's. */
    public void markOverwritten(String name) {
        call(() -> redis.hset(meta(name), "overwritten", "true"));
    }

    /** Whether a run has overwritten objects of dataset {@code name} since its load. */
    public boolean overwritten(String name) {
        return "true".equals(call(() -> redis.hget(meta(name), "overwritten")));
    }

    /** Sets the registered key count of dataset {@code name} (after a run's inserts). */
    public void setCount(String name, long count) {
        call(() -> redis.hset(meta(name), "count", Long.toString(count)));
    }

    /** The description of dataset {@code name}. */
    public DatasetSpec spec(String name) {
        Map<String, String> fields = call(() -> redis.hgetAll(meta(name)));
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("no dataset '" + name + "' in the key registry at " + address
                    + "; run 'loadtest load --dataset " + name + "' first");
        }
        return DatasetSpec.fromFields(fields);
    }

    /** Registers {@code keys[i]} as the key of index {@code first + i}. */
    public void register(String name, long first, List<String> keys) {
        call(() -> {
            try (Pipeline p = redis.pipelined()) {
                for (int i = 0; i < keys.size(); i++) {
                    p.hset(keys(name), Long.toString(first + i), keys.get(i));
                }
                p.sync();
            }
            return null;
        });
    }

    /** The keys of indices {@code 0 .. count - 1}; fails if any is missing. */
    public String[] keys(String name, long count) {
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many keys to hold in memory: " + count);
        }
        String[] out = new String[(int) count];
        for (int from = 0; from < count; from += BATCH) {
            int to = (int) Math.min(count, from + (long) BATCH);
            String[] fields = new String[to - from];
            for (int i = from; i < to; i++) {
                fields[i - from] = Integer.toString(i);
            }
            List<String> got = call(() -> redis.hmget(keys(name), fields));
            for (int i = 0; i < got.size(); i++) {
                String key = got.get(i);
                if (key == null) {
                    throw new IllegalStateException("dataset '" + name + "' has no key registered for index "
                            + (from + i) + " of " + count + "; was its load interrupted? Load it again.");
                }
                out[from + i] = key;
            }
        }
        return out;
    }

    /** The number of keys registered for dataset {@code name}. */
    public long registeredKeys(String name) {
        return call(() -> redis.hlen(keys(name)));
    }

    @Override
    public void close() {
        redis.close();
    }

    private <T> T call(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (JedisConnectionException e) {
            throw unavailable(address, e);
        }
    }

    private static String meta(String name) {
        return "cairn:loadtest:" + name + ":meta";
    }

    private static String keys(String name) {
        return "cairn:loadtest:" + name + ":keys";
    }

    private static HostAndPort parse(String address) {
        int colon = address.lastIndexOf(':');
        try {
            return colon < 0 ? new HostAndPort(address, 6379)
                    : new HostAndPort(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Redis address must be host:port, got '" + address + "'", e);
        }
    }

    private static RegistryUnavailableException unavailable(String address, Exception cause) {
        return new RegistryUnavailableException("cannot reach Redis at " + address + " (" + cause.getMessage()
                + "). The load generator keeps the dataset's key list in Redis: start one"
                + " (redis-server --port " + address.substring(address.lastIndexOf(':') + 1)
                + " --save '') or point --redis at a running one.", cause);
    }

    /** Redis did not answer; the message says what to do. */
    public static final class RegistryUnavailableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RegistryUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
