package dev.cairn.store;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisPubSub;

/**
 * Object writes announced over Redis pub/sub: every node publishes {@code bucket/key} (a bucket
 * name holds no {@code /}; {@code bucket/} for a change of the bucket's versioning) on one
 * channel and subscribes to it.
 *
 * <p>Pub/sub delivers at most once, so the listener is told when messages may have been lost:
 * when the subscription drops, and when no reply to a PING arrives within {@code timeout}
 * (a connection that died silently); the subscriber then reconnects and reports
 * {@link InvalidationListener#channelResumed} once Redis confirms the subscription.
 *
 * <p>Thread-safe; one subscriber thread and one heartbeat thread.
 */
public final class RedisInvalidationChannel implements InvalidationPublisher {
    private static final System.Logger LOG = System.getLogger(RedisInvalidationChannel.class.getName());

    private final HostAndPort address;
    private final String channel;
    private final long timeoutNanos;
    private final JedisClientConfig config;
    private final InvalidationListener listener;
    private final JedisPooled publisher;
    private final Thread subscriber;
    private final ScheduledExecutorService heartbeat;
    private volatile boolean closed;
    private volatile Jedis connection;
    private volatile Subscription subscription;

    private RedisInvalidationChannel(HostAndPort address, String channel, Duration timeout,
                                     InvalidationListener listener) {
        this.address = address;
        this.channel = channel;
        this.timeoutNanos = timeout.toNanos();
        this.listener = listener;
        this.config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) timeout.toMillis())
                .socketTimeoutMillis((int) timeout.toMillis())
                .build();
        this.publisher = new JedisPooled(address, config);
        this.subscriber = new Thread(this::subscribeUntilClosed, "cairn-invalidation-subscriber");
        this.subscriber.setDaemon(true);
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cairn-invalidation-heartbeat");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts listening; the listener hears {@code channelResumed} once subscribed. */
    public static RedisInvalidationChannel start(HostAndPort address, String channel, Duration timeout,
                                                 InvalidationListener listener) {
        RedisInvalidationChannel c = new RedisInvalidationChannel(address, channel, timeout, listener);
        c.subscriber.start();
        long period = Math.max(1, c.timeoutNanos / 4);
        c.heartbeat.scheduleWithFixedDelay(c::checkAlive, period, period, TimeUnit.NANOSECONDS);
        return c;
    }

    @Override
    public void publish(String bucket, String key) throws IOException {
        try {
            publisher.publish(channel, bucket + "/" + key);
        } catch (RuntimeException e) {
            throw new IOException("Redis at " + address + " did not take the invalidation: " + e.getMessage(), e);
        }
    }

    private final class Subscription extends JedisPubSub {
        volatile long lastHeard = System.nanoTime();

        @Override
        public void onSubscribe(String ch, int subscribedChannels) {
            lastHeard = System.nanoTime();
            listener.channelResumed();
        }

        @Override
        public void onMessage(String ch, String message) {
            lastHeard = System.nanoTime();
            int slash = message.indexOf('/');
            if (slash > 0) {
                listener.invalidated(message.substring(0, slash), message.substring(slash + 1));
            }
        }

        @Override
        public void onPong(String pattern) {
            lastHeard = System.nanoTime();
        }
    }

    private void subscribeUntilClosed() {
        while (!closed) {
            Subscription s = new Subscription();
            try (Jedis jedis = new Jedis(address, config)) {
                connection = jedis;
                subscription = s;
                jedis.subscribe(s, channel);
            } catch (RuntimeException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.WARNING, "invalidation channel " + channel + " at " + address
                            + " lost: " + e.getMessage() + "; cached object rows are bypassed until it is back");
                }
            } finally {
                subscription = null;
                connection = null;
                listener.channelLost();
            }
            if (!closed) {
                try {
                    Thread.sleep(Math.max(1, timeoutNanos / 4_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Pings the subscription; one silent for longer than the timeout is dropped (and so reported). */
    private void checkAlive() {
        Subscription s = subscription;
        Jedis c = connection;
        if (s == null || c == null || !s.isSubscribed()) {
            return;
        }
        if (System.nanoTime() - s.lastHeard > timeoutNanos) {
            listener.channelLost();
            c.disconnect();
            return;
        }
        try {
            s.ping();
        } catch (RuntimeException e) {
            listener.channelLost();
            c.disconnect();
        }
    }

    @Override
    public void close() {
        closed = true;
        heartbeat.shutdownNow();
        Subscription s = subscription;
        Jedis c = connection;
        if (s != null && s.isSubscribed()) {
            try {
                s.unsubscribe();
            } catch (RuntimeException e) {
                // Disconnecting below ends the subscriber all the same.
            }
        }
        if (c != null) {
            c.disconnect();
        }
        try {
            subscriber.join(TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        publisher.close();
    }
}
