package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.service.auth.CredentialsProvider;
import dev.cairn.service.config.ConsoleProperties;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.PutRequest;
import dev.cairn.store.Versioning;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import jakarta.servlet.http.Cookie;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * The buckets page offers Delete only where a deletion would succeed: on an empty bucket, not on
 * one that holds objects, nor on a versioned one whose only objects are older versions and delete
 * markers; those say what it takes instead.
 */
class BucketsControllerTest {
    private static final String NOT_EMPTY = "Delete it once it is empty";
    @TempDir
    Path dir;
    private Engine engine;
    private EmbeddedObjectStore store;
    private MockMvc mvc;
    private ConsoleSession admin;

    @BeforeEach
    void start() throws IOException {
        engine = Engine.open(EngineOptions.builder(dir.resolve("engine")).memtableBytes(4L << 20).build());
        store = new EmbeddedObjectStore(engine);
        ConsoleSessions sessions = new ConsoleSessions(CredentialsProvider.of(Map.of("ADMIN", "a")),
                Clock.systemUTC(), Duration.ofMinutes(30), Duration.ofHours(12));
        admin = sessions.signIn("ADMIN", "a").orElseThrow();
        ConsoleAccess access = (key, bucket, action) -> key.equals("ADMIN");
        mvc = MockMvcBuilders.standaloneSetup(new BucketsController(store, access, new ConsoleProperties()))
                .addInterceptors(new ConsoleGuard(sessions)).setControllerAdvice(new ConsoleErrors()).build();
    }

    @AfterEach
    void stop() throws IOException {
        engine.close();
    }

    private void put(String bucket, String key) throws IOException {
        BytesContent c = BytesContent.of(key.getBytes(StandardCharsets.UTF_8));
        store.putObject(PutRequest.of(bucket, key, c, c.md5())
                .withAttributes(new ObjectAttributes("text/plain", null, null, null, null, null, Map.of())));
    }

    /** The Actions cell of each bucket's row. */
    private Map<String, String> actions() throws Exception {
        String page = mvc.perform(get("/console/buckets").cookie(new Cookie(ConsoleGuard.COOKIE, admin.id())))
                .andReturn().getResponse().getContentAsString();
        Map<String, String> out = new java.util.TreeMap<>();
        Matcher row = Pattern.compile("<tr><th scope=\"row\"><a href=\"/console/b/([^\"]+)\">.*?<td>((?:(?!</td>).)*)</td></tr>")
                .matcher(page);
        while (row.find()) {
            out.put(row.group(1), row.group(2));
        }
        return out;
    }

    @Test
    void deleteIsOfferedOnlyOnEmptyBuckets() throws Exception {
        store.createBucket("empty", BucketAcl.PRIVATE);
        store.createBucket("full", BucketAcl.PRIVATE);
        put("full", "k");
        store.createBucket("versions-only", BucketAcl.PRIVATE);
        store.setBucketVersioning("versions-only", Versioning.ENABLED);
        put("versions-only", "k");
        store.deleteObject("versions-only", "k");
        store.createBucket("emptied", BucketAcl.PRIVATE);
        store.setBucketVersioning("emptied", Versioning.ENABLED);

        Map<String, String> actions = actions();
        assertEquals(4, actions.size(), actions::toString);
        assertTrue(actions.get("empty").contains("aria-label=\"Delete bucket empty\""), actions.get("empty"));
        assertTrue(actions.get("emptied").contains("aria-label=\"Delete bucket emptied\""), actions.get("emptied"));
        for (String bucket : new String[] {"full", "versions-only"}) {
            assertFalse(actions.get(bucket).contains("Delete bucket"), bucket + ": " + actions.get(bucket));
            assertTrue(actions.get(bucket).contains(NOT_EMPTY), bucket + ": " + actions.get(bucket));
        }
    }
}
