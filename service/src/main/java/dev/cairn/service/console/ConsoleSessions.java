package dev.cairn.service.console;

import dev.cairn.service.auth.CredentialsProvider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server-side session store: sign-in against the service's credentials, lookup by the
 * cookie's id with idle and absolute expiry, sign-out. Ids and CSRF tokens are 256 random bits.
 * At most {@link #MAX_SESSIONS} live at once: signing in beyond that first drops the expired,
 * then the least recently used.
 *
 * <p>Thread-safe: a concurrent map; a session's fields are final but its last-use time.
 */
public final class ConsoleSessions {
    static final int MAX_SESSIONS = 10_000;
    private static final Base64.Encoder TOKEN = Base64.getUrlEncoder().withoutPadding();
    /** Compared against when the access key is unknown, so that the answer takes as long. */
    private static final byte[] NO_SECRET = new byte[40];

    private final CredentialsProvider credentials;
    private final Clock clock;
    private final Duration idleTimeout;
    private final Duration maxAge;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, ConsoleSession> sessions = new ConcurrentHashMap<>();

    public ConsoleSessions(CredentialsProvider credentials, Clock clock, Duration idleTimeout, Duration maxAge) {
        this.credentials = credentials;
        this.clock = clock;
        this.idleTimeout = idleTimeout;
        this.maxAge = maxAge;
    }

    /** A new session when the secret is the access key's, compared in constant time; else empty. */
    public Optional<ConsoleSession> signIn(String accessKey, String secret) {
        if (accessKey == null || secret == null || accessKey.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> known = credentials.secretKey(accessKey);
        byte[] expected = known.map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(NO_SECRET);
        boolean equal = MessageDigest.isEqual(expected, secret.getBytes(StandardCharsets.UTF_8));
        if (known.isEmpty() || !equal) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        makeRoom(now);
        ConsoleSession s = new ConsoleSession(newToken(), accessKey, newToken(), now);
        sessions.put(s.id(), s);
        return Optional.of(s);
    }

    /** The live session of this id, its last use moved to now; null when unknown or expired. */
    public ConsoleSession find(String id) {
        if (id == null) {
            return null;
        }
        ConsoleSession s = sessions.get(id);
        if (s == null) {
            return null;
        }
        Instant now = clock.instant();
        if (expired(s, now)) {
            sessions.remove(id, s);
            return null;
        }
        s.touch(now);
        return s;
    }

    public void signOut(String id) {
        if (id != null) {
            sessions.remove(id);
        }
    }

    /** Whether {@code provided} is the session's CSRF token, compared in constant time. */
    public static boolean csrfMatches(ConsoleSession session, String provided) {
        return provided != null && MessageDigest.isEqual(session.csrfToken().getBytes(StandardCharsets.US_ASCII),
                provided.getBytes(StandardCharsets.UTF_8));
    }

    /** A fresh random token (256 bits, URL-safe base64). */
    public String newToken() {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return TOKEN.encodeToString(b);
    }

    int size() {
        return sessions.size();
    }

    private boolean expired(ConsoleSession s, Instant now) {
        return now.isAfter(s.lastUsed().plus(idleTimeout)) || now.isAfter(s.created().plus(maxAge));
    }

    private void makeRoom(Instant now) {
        if (sessions.size() < MAX_SESSIONS) {
            return;
        }
        sessions.values().removeIf(s -> expired(s, now));
        while (sessions.size() >= MAX_SESSIONS) {
            sessions.values().stream().min(Comparator.comparing(ConsoleSession::lastUsed))
                    .ifPresent(oldest -> sessions.remove(oldest.id(), oldest));
        }
    }
}
