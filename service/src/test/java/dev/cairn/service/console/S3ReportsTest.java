package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class S3ReportsTest {
    /** A bucket in memory that counts what it is asked, the way S3 answers it (keys in order). */
    static final class Bucket implements ArchiveBucket {
        final TreeMap<String, String> etags = new TreeMap<>();
        final TreeMap<String, byte[]> bodies = new TreeMap<>();
        final List<String> listedAfter = new ArrayList<>();
        final List<String> fetched = new ArrayList<>();
        private int version;

        void put(String key, String body) {
            etags.put(key, "etag-" + (++version));
            bodies.put(key, body.getBytes(StandardCharsets.UTF_8));
        }

        void remove(String key) {
            etags.remove(key);
            bodies.remove(key);
        }

        @Override
        public String describe() {
            return "memory";
        }

        @Override
        public List<Listed> list(String prefix, String startAfter, int maxPages) {
            listedAfter.add(String.valueOf(startAfter));
            List<Listed> out = new ArrayList<>();
            for (Map.Entry<String, String> e : (startAfter == null ? etags : etags.tailMap(startAfter, false)).entrySet()) {
                if (e.getKey().startsWith(prefix)) {
                    out.add(new Listed(e.getKey(), e.getValue()));
                }
            }
            return out;
        }

        @Override
        public byte[] get(String key, int maxBytes) {
            fetched.add(key);
            return bodies.get(key);
        }
    }

    static String id(int i) {
        return String.format("20261124T%02d0000Z-ab%02d", i / 6, i % 100);
    }

    static String key(int i) {
        return "cairn/reports/" + id(i) + ".json";
    }

    static String report(int i, String status) {
        return "{\"backupId\":\"" + id(i) + "\",\"status\":\"" + status + "\",\"startedAt\":\"2026-11-24T00:00:00Z\","
                + "\"durationSeconds\":1.5,\"objects\":" + i + ",\"copiedBytes\":10,\"errors\":[\"one\"],\"extra\":{}}";
    }

    @Test
    void listsAllOnceThenOnlyFromTheNewestOnAndFetchesOnlyWhatChanged() throws Exception {
        Bucket b = new Bucket();
        for (int i = 0; i < 25; i++) {
            b.put(key(i), report(i, "complete"));
        }
        b.put("cairn/reports/notes.txt", "not a report");
        b.put("cairn/manifests/" + id(3) + ".manifest", "not a report either");
        S3Reports reports = new S3Reports(b, "archive", "cairn/");
        assertEquals("s3://archive/cairn/ at memory", reports.describe());

        List<Map<String, Object>> runs = reports.newest(10);
        assertEquals(10, runs.size());
        assertEquals(id(24), runs.get(0).get("id"), "newest first");
        assertEquals(id(15), runs.get(9).get("id"));
        assertEquals(24L, runs.get(0).get("objects"));
        assertEquals(1, runs.get(0).get("errors"));
        assertEquals(List.of("null"), b.listedAfter, "the first read lists everything");
        assertEquals(10, b.fetched.size());

        b.put(key(25), report(25, "complete"));
        b.put(key(26), report(26, "failed"));
        b.fetched.clear();
        runs = reports.newest(10);
        assertEquals(id(26), runs.get(0).get("id"));
        assertEquals("failed", runs.get(0).get("status"));
        assertEquals(id(17), runs.get(9).get("id"));
        assertEquals(key(14), b.listedAfter.get(1), "lists after the report just older than those shown");
        assertEquals(List.of(key(26), key(25)), b.fetched, "only the new reports are fetched");

        b.put(key(26), report(26, "complete")); // a resumed run rewrites its report
        b.fetched.clear();
        runs = reports.newest(10);
        assertEquals("complete", runs.get(0).get("status"));
        assertEquals(List.of(key(26)), b.fetched);

        b.remove(key(20));
        b.put(key(21), "{ half a report");
        b.fetched.clear();
        runs = reports.newest(10);
        assertEquals("null", b.listedAfter.get(b.listedAfter.size() - 1), "a report shown has gone: everything is listed again");
        List<Object> ids = runs.stream().map(r -> r.get("id")).toList();
        assertEquals(List.of(id(26), id(25), id(24), id(23), id(22), id(19), id(18), id(17), id(16), id(15)), ids,
                "the deleted report and the unreadable one are left out, older ones fill in");
    }

    @Test
    void anArchiveWithFewReportsIsListedWhole() throws Exception {
        Bucket b = new Bucket();
        S3Reports reports = new S3Reports(b, "archive", "");
        assertEquals(List.of(), reports.newest(10));
        b.put("reports/" + id(1) + ".json", report(1, "complete"));
        assertEquals(1, reports.newest(10).size());
        assertEquals(List.of("null", "null"), b.listedAfter);
        assertNull(b.get("reports/none.json", 10));
    }
}
