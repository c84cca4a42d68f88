package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.auth.CredentialsProvider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleSessionsTest {
    /** A clock the test moves. */
    static final class MovableClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final MovableClock clock = new MovableClock();
    private final ConsoleSessions sessions = new ConsoleSessions(CredentialsProvider.of(Map.of("AK1", "secret-one")), clock,
            Duration.ofMinutes(30), Duration.ofHours(12));

    @Test
    void signInNeedsTheKeysSecret() {
        assertTrue(sessions.signIn("AK1", "secret-one").isPresent());
        assertFalse(sessions.signIn("AK1", "secret-on").isPresent());
        assertFalse(sessions.signIn("AK1", "secret-one ").isPresent());
        assertFalse(sessions.signIn("AK2", "secret-one").isPresent());
        assertFalse(sessions.signIn("", "").isPresent());
        assertFalse(sessions.signIn(null, "secret-one").isPresent());
    }

    @Test
    void sessionsHaveUnguessableDistinctIdsAndTokens() {
        ConsoleSession a = sessions.signIn("AK1", "secret-one").orElseThrow();
        ConsoleSession b = sessions.signIn("AK1", "secret-one").orElseThrow();
        assertNotEquals(a.id(), b.id());
        assertNotEquals(a.csrfToken(), b.csrfToken());
        assertNotEquals(a.id(), a.csrfToken());
        assertEquals(43, a.id().length()); // 256 bits, URL-safe base64
        assertSame(a, sessions.find(a.id()));
        assertEquals("AK1", sessions.find(b.id()).accessKey());
        assertNull(sessions.find("nope"));
        assertNull(sessions.find(null));
    }

    @Test
    void anIdleSessionExpiresAndUseKeepsItAlive() {
        ConsoleSession s = sessions.signIn("AK1", "secret-one").orElseThrow();
        clock.now = clock.now.plus(Duration.ofMinutes(29));
        assertSame(s, sessions.find(s.id()));
        clock.now = clock.now.plus(Duration.ofMinutes(29));
        assertSame(s, sessions.find(s.id()));
        clock.now = clock.now.plus(Duration.ofMinutes(31));
        assertNull(sessions.find(s.id()));
        assertEquals(0, sessions.size());
    }

    @Test
    void aSessionEndsAtItsMaximumAgeWhateverItsUse() {
        ConsoleSession s = sessions.signIn("AK1", "secret-one").orElseThrow();
        for (int i = 0; i < 12 * 3; i++) {
            clock.now = clock.now.plus(Duration.ofMinutes(20));
            if (i < 35) {
                assertSame(s, sessions.find(s.id()), "alive after " + (i + 1) * 20 + " minutes");
            }
        }
        clock.now = clock.now.plus(Duration.ofMinutes(1));
        assertNull(sessions.find(s.id()));
    }

    @Test
    void signOutEndsTheSession() {
        ConsoleSession s = sessions.signIn("AK1", "secret-one").orElseThrow();
        sessions.signOut(s.id());
        assertNull(sessions.find(s.id()));
    }

    @Test
    void theCsrfTokenMustMatchExactly() {
        ConsoleSession s = sessions.signIn("AK1", "secret-one").orElseThrow();
        assertTrue(ConsoleSessions.csrfMatches(s, s.csrfToken()));
        assertFalse(ConsoleSessions.csrfMatches(s, null));
        assertFalse(ConsoleSessions.csrfMatches(s, ""));
        assertFalse(ConsoleSessions.csrfMatches(s, s.csrfToken().substring(1)));
        assertFalse(ConsoleSessions.csrfMatches(s, s.id()));
    }

    @Test
    void theStoreIsBoundedDroppingTheLeastRecentlyUsed() {
        ConsoleSession first = sessions.signIn("AK1", "secret-one").orElseThrow();
        clock.now = clock.now.plusSeconds(1);
        ConsoleSession second = sessions.signIn("AK1", "secret-one").orElseThrow();
        for (int i = 2; i < ConsoleSessions.MAX_SESSIONS; i++) {
            sessions.signIn("AK1", "secret-one");
        }
        clock.now = clock.now.plusSeconds(1);
        sessions.find(first.id());
        assertEquals(ConsoleSessions.MAX_SESSIONS, sessions.size());
        sessions.signIn("AK1", "secret-one").orElseThrow();
        assertEquals(ConsoleSessions.MAX_SESSIONS, sessions.size());
        assertSame(first, sessions.find(first.id()), "recently used");
    }
}
