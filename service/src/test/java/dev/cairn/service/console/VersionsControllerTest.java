package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.service.auth.CredentialsProvider;
import dev.cairn.service.config.ConsoleProperties;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.PutRequest;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.Versioning;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import jakarta.servlet.http.Cookie;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * Acting on old versions through the console's handlers, on the embedded store: download one,
 * make one current again, delete one for good; a reader is offered none of the writes and is
 * refused them when it forges them; every write needs the CSRF token.
 */
class VersionsControllerTest {
    @TempDir
    Path dir;
    private Engine engine;
    private EmbeddedObjectStore store;
    private MockMvc mvc;
    private ConsoleSession admin;
    private ConsoleSession reader;
    private ConsoleSessions sessions;

    @BeforeEach
    void start() throws IOException {
        engine = Engine.open(EngineOptions.builder(dir.resolve("engine")).memtableBytes(4L << 20).build());
        store = new EmbeddedObjectStore(engine);
        sessions = new ConsoleSessions(CredentialsProvider.of(Map.of("ADMIN", "a", "READER", "r")),
                Clock.systemUTC(), Duration.ofMinutes(30), Duration.ofHours(12));
        admin = sessions.signIn("ADMIN", "a").orElseThrow();
        reader = sessions.signIn("READER", "r").orElseThrow();
        ConsoleAccess access = (key, bucket, action) -> key.equals("ADMIN")
                || (action == ConsoleAccess.Action.LIST || action == ConsoleAccess.Action.READ);
        VersionsController versions = new VersionsController(store, access);
        mvc = MockMvcBuilders.standaloneSetup(new BrowseController(store, access, versions), versions,
                        new ContentController(store, access, null, new ConsoleProperties()))
                .addInterceptors(new ConsoleGuard(sessions)).setControllerAdvice(new ConsoleErrors()).build();
        store.createBucket("v", BucketAcl.PRIVATE);
        store.setBucketVersioning("v", Versioning.ENABLED);
    }

    @AfterEach
    void stop() throws IOException {
        engine.close();
    }

    private ObjectInfo put(String key, String content) throws IOException {
        BytesContent c = BytesContent.of(content.getBytes(StandardCharsets.UTF_8));
        return store.putObject(PutRequest.of("v", key, c, c.md5())
                .withAttributes(new ObjectAttributes("text/plain", null, null, null, null, null, Map.of("n", content))));
    }

    private MockHttpServletResponse send(MockHttpServletRequestBuilder r, ConsoleSession s, boolean csrf) throws Exception {
        r.cookie(new Cookie(ConsoleGuard.COOKIE, s.id()));
        if (csrf) {
            r.param(ConsoleGuard.CSRF_FIELD, s.csrfToken());
        }
        return mvc.perform(r).andReturn().getResponse();
    }

    private MockHttpServletResponse act(String action, ConsoleSession s, String key, String versionId, boolean csrf) throws Exception {
        return send(post("/console/b/v/object/version/" + action).param("key", key).param("versionId", versionId), s, csrf);
    }

    private String current(String key) throws IOException {
        try (ObjectRead read = store.getObject("v", key); InputStream in = read.open(0, read.info().size())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private List<ObjectVersion> versions(String key) throws IOException {
        return store.listObjectVersions("v", new VersionQuery(key, null, null, null, 100)).versions();
    }

    @Test
    void theTableOffersEachKeyOnlyWhatItsRoleAllows() throws Exception {
        ObjectInfo one = put("k", "one");
        put("k", "two");
        ObjectInfo three = put("k", "three");
        String page = versionsTable(send(get("/console/b/v/object").param("key", "k"), admin, false).getContentAsString());
        assertEquals(3, count(page, "<tr data-version="), page);
        assertEquals(3, count(page, ">Download</a>"), page);
        assertEquals(2, count(page, ">Make current</button>"), "not for the current version: " + page);
        assertEquals(3, count(page, ">Delete for good</button>"), page);
        assertTrue(page.contains("data-version=\"" + three.versionId() + "\" data-current=\"true\""), page);
        assertTrue(page.contains("versionId=" + one.versionId()), page);

        String readerPage = send(get("/console/b/v/object").param("key", "k"), reader, false).getContentAsString();
        assertFalse(readerPage.contains("Delete object"), readerPage);
        String readers = versionsTable(readerPage);
        assertEquals(3, count(readers, ">Download</a>"), readers);
        assertFalse(readers.contains("<form") || readers.contains("<button"), readers);
    }

    @Test
    void anOldVersionDownloadsAndBecomesCurrentAgainAsANewVersion() throws Exception {
        ObjectInfo one = put("k", "one");
        ObjectInfo two = put("k", "two");
        MockHttpServletResponse old = send(get("/console/b/v/raw").param("key", "k").param("versionId", one.versionId()),
                reader, false);
        assertEquals(200, old.getStatus());
        assertArrayEquals("one".getBytes(StandardCharsets.UTF_8), old.getContentAsByteArray());
        assertEquals("attachment; filename=\"k\"", old.getHeader("Content-Disposition"), "text downloads, never renders");
        assertEquals(400, send(get("/console/b/v/raw").param("key", "k").param("versionId", "../x"), reader, false).getStatus());

        assertEquals(403, act("restore", admin, "k", one.versionId(), false).getStatus(), "no CSRF token");
        assertEquals(403, act("restore", reader, "k", one.versionId(), true).getStatus(), "a reader may not write");
        assertEquals("two", current("k"));

        MockHttpServletResponse restored = act("restore", admin, "k", one.versionId(), true);
        assertEquals(303, restored.getStatus());
        assertTrue(restored.getHeader("Location").startsWith("/console/b/v/object?key=k&done="), restored.getHeader("Location"));
        ObjectInfo now = store.headObject("v", "k");
        assertEquals("one", current("k"));
        assertEquals(one.etag(), now.etag(), "a copy of one part keeps the MD5 of its bytes");
        assertEquals(Map.of("n", "one"), now.attributes().userMetadata(), "the version's own metadata");
        List<ObjectVersion> all = versions("k");
        assertEquals(3, all.size(), "a copy on top; the others stay");
        assertEquals(List.of(now.versionId(), two.versionId(), one.versionId()),
                all.stream().map(ObjectVersion::versionId).toList());
        assertTrue(act("restore", admin, "k", now.versionId(), true).getHeader("Location").contains("already"));
        assertEquals(3, versions("k").size(), "making the current version current writes nothing");
    }

    @Test
    void aVersionIsDeletedForGoodAndDeletingTheDeleteMarkerBringsTheKeyBack() throws Exception {
        ObjectInfo one = put("k", "one");
        ObjectInfo two = put("k", "two");
        assertEquals(403, act("delete", reader, "k", one.versionId(), true).getStatus());
        assertEquals(403, act("delete", admin, "k", one.versionId(), false).getStatus());
        assertEquals(2, versions("k").size());

        assertEquals(303, act("delete", admin, "k", one.versionId(), true).getStatus());
        assertNull(store.objectVersion("v", "k", one.versionId()));
        assertEquals(404, send(get("/console/b/v/raw").param("key", "k").param("versionId", one.versionId()), reader, false)
                .getStatus());
        assertEquals("two", current("k"));

        // Deleting the object leaves a delete marker on top; its page still lists the versions.
        MockHttpServletResponse deleted = send(post("/console/b/v/object/delete").param("key", "k"), admin, true);
        assertTrue(deleted.getHeader("Location").startsWith("/console/b/v/object?key=k&done="), deleted.getHeader("Location"));
        assertNull(store.headObject("v", "k"));
        String page = send(get("/console/b/v/object").param("key", "k"), admin, false).getContentAsString();
        assertTrue(page.contains("id=\"deleted\""), page);
        put("other", "kept");
        String browse = send(get("/console/b/v"), reader, false).getContentAsString();
        assertTrue(browse.contains("href=\"/console/b/v/deleted?prefix=\""), browse);
        String deletedList = send(get("/console/b/v/deleted").param("prefix", ""), reader, false).getContentAsString();
        assertTrue(deletedList.contains("href=\"/console/b/v/object?key=k\""), "the deleted key is listed: " + deletedList);
        assertFalse(deletedList.contains("key=other"), "a key with a current object is not: " + deletedList);
        ObjectVersion marker = versions("k").get(0);
        assertTrue(marker.deleteMarker());
        assertEquals(400, act("restore", admin, "k", marker.versionId(), true).getStatus(), "a delete marker has no content");

        assertEquals(303, act("delete", admin, "k", marker.versionId(), true).getStatus());
        assertEquals("two", current("k"), "the marker gone, the version under it is current again");
        assertTrue(send(get("/console/b/v/deleted"), reader, false).getContentAsString().contains("No deleted object here"));

        // The last version gone: back to the folder.
        MockHttpServletResponse last = act("delete", admin, "k", two.versionId(), true);
        assertTrue(last.getHeader("Location").startsWith("/console/b/v?prefix=&done="), last.getHeader("Location"));
        assertEquals(404, send(get("/console/b/v/object").param("key", "k"), admin, false).getStatus());
    }

    @Test
    void deletedObjectsArePagedByABoundedScanAndEachListedOnce() throws Exception {
        ConsoleAccess access = (key, bucket, action) -> true;
        MockMvc small = MockMvcBuilders.standaloneSetup(new VersionsController(store, access, 3, 2))
                .addInterceptors(new ConsoleGuard(sessions)).setControllerAdvice(new ConsoleErrors()).build();
        java.util.Set<String> deleted = new java.util.TreeSet<>();
        for (int i = 0; i < 9; i++) {
            String key = "f/" + i;
            put(key, "v1-" + i);
            if (i % 3 != 1) {
                put(key, "v2-" + i);
                store.deleteObjectVersion("v", key, null);
                deleted.add(key);
            }
        }
        put("g/0", "outside the folder");
        store.deleteObjectVersion("v", "g/0", null);
        java.util.List<String> listed = new java.util.ArrayList<>();
        String path = "/console/b/v/deleted?prefix=f/";
        int pages = 0;
        for (; path != null; pages++) {
            assertTrue(pages < 20, "the pages end");
            MockHttpServletRequestBuilder r = get(java.net.URI.create(path));
            r.cookie(new Cookie(ConsoleGuard.COOKIE, admin.id()));
            String page = small.perform(r).andReturn().getResponse().getContentAsString();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("object\\?key=(f%2F\\d)\"").matcher(page);
            while (m.find()) {
                listed.add(m.group(1).replace("%2F", "/"));
            }
            java.util.regex.Matcher next = java.util.regex.Pattern.compile("rel=\"next\" href=\"([^\"]+)\"").matcher(page);
            path = next.find() ? next.group(1).replace("&amp;", "&") : null;
        }
        assertEquals(new java.util.ArrayList<>(deleted), listed, "every deleted key once, in order, none outside the folder");
        assertTrue(pages > 2, "the scan bound splits the listing into pages: " + pages);
    }

    private static String versionsTable(String page) {
        int start = page.indexOf("<table class=\"versions\"");
        assertTrue(start >= 0, page);
        return page.substring(start, page.indexOf("</table>", start));
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
