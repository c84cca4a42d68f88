package dev.cairn.service.console;

import java.time.Instant;

/**
 * One signed-in browser: the session id its cookie carries, the access key it signed in with,
 * and the token every state-changing request must repeat (CSRF). {@code lastUsed} moves on each
 * request; the rest never changes.
 */
public final class ConsoleSession {
    private final String id;
    private final String accessKey;
    private final String csrfToken;
    private final Instant created;
    private volatile Instant lastUsed;

    ConsoleSession(String id, String accessKey, String csrfToken, Instant created) {
        this.id = id;
        this.accessKey = accessKey;
        this.csrfToken = csrfToken;
        this.created = created;
        this.lastUsed = created;
    }

    public String id() {
        return id;
    }

    public String accessKey() {
        return accessKey;
    }

    public String csrfToken() {
        return csrfToken;
    }

    Instant created() {
        return created;
    }

    Instant lastUsed() {
        return lastUsed;
    }

    void touch(Instant now) {
        lastUsed = now;
    }
}
