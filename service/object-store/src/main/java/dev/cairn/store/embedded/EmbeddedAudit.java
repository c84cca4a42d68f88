package dev.cairn.store.embedded;

import static dev.cairn.store.embedded.EmbeddedKeys.REF_OBJECT;
import static dev.cairn.store.embedded.EmbeddedKeys.REF_PART;
import static dev.cairn.store.embedded.EmbeddedKeys.SHA_BYTES;
import static dev.cairn.store.embedded.EmbeddedKeys.UPLOAD_ID_CHARS;
import static dev.cairn.store.embedded.EmbeddedObjectStore.CHUNK_BYTES;

import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Snapshot;
import dev.cairn.engine.Table;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.PartInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Recounts every reference from the rows that hold them (object rows, parts of open uploads) at
 * one engine snapshot and compares with table {@code refs}; checks that referenced content is
 * whole (its size row and every chunk, of the right sizes) and that no content, chunk or intent
 * is left without a holder. Read-only.
 */
final class EmbeddedAudit {
    private static final int MAX_PROBLEMS = 100;

    private final EmbeddedTables t;
    private final List<String> problems = new ArrayList<>();

    EmbeddedAudit(EmbeddedTables t) {
        this.t = t;
    }

    EmbeddedObjectStore.AuditReport run() throws IOException {
        try (Snapshot snapshot = t.engine.snapshot()) {
            ReadOptions at = ReadOptions.at(snapshot);
            Map<String, Long> expected = new TreeMap<>();
            int[] objects = {0};
            scan(t.objects, at, (key, value) -> {
                int zero = indexOf(key, (byte) 0);
                String bucket = new String(key, 0, zero, StandardCharsets.UTF_8);
                String name = new String(key, zero + 1, key.length - zero - 1, StandardCharsets.UTF_8);
                ObjectInfo info = ObjectRow.fromRow(name, t.objects.decodeRow(value));
                expected.merge(refKey(info.sha256(), REF_OBJECT, bucket), 1L, Long::sum);
                objects[0]++;
            });
            int[] versions = {0};
            scan(t.versions, at, (key, value) -> {
                int zero = indexOf(key, (byte) 0);
                String bucket = new String(key, 0, zero, StandardCharsets.UTF_8);
                int keyEnd = key.length - dev.cairn.store.VersionId.SORT_BYTES - 1;
                String name = new String(key, zero + 1, keyEnd - zero - 1, StandardCharsets.UTF_8);
                byte[] sort = Arrays.copyOfRange(key, keyEnd + 1, key.length);
                dev.cairn.store.ObjectVersion v = EmbeddedVersions.decode(name, sort, value);
                if (!v.deleteMarker()) {
                    expected.merge(refKey(v.info().sha256(), REF_OBJECT, bucket), 1L, Long::sum);
                    versions[0]++;
                }
            });
            Map<String, String> uploadBuckets = new HashMap<>();
            scan(t.uploads, at, (key, value) -> {
                String uploadId = new String(key, key.length - UPLOAD_ID_CHARS, UPLOAD_ID_CHARS, StandardCharsets.UTF_8);
                uploadBuckets.put(uploadId, new String(key, 0, indexOf(key, (byte) 0), StandardCharsets.UTF_8));
            });
            int[] parts = {0};
            scan(t.parts, at, (key, value) -> {
                String uploadId = new String(key, 0, UPLOAD_ID_CHARS, StandardCharsets.UTF_8);
                int number = ByteBuffer.wrap(key, UPLOAD_ID_CHARS, 4).getInt();
                PartInfo part = EmbeddedRows.decodePart(number, value, "parts/" + uploadId + "/" + number);
                String bucket = uploadBuckets.get(uploadId);
                if (bucket == null) {
                    problem("part " + number + " of upload " + uploadId + " has no upload row");
                    return;
                }
                expected.merge(refKey(part.sha256(), REF_PART, bucket), 1L, Long::sum);
                parts[0]++;
            });
            Map<String, Long> counted = new TreeMap<>();
            scan(t.refs, at, (key, value) -> counted.put(
                    Hex.encode(Arrays.copyOf(key, SHA_BYTES)) + "/" + new String(key, SHA_BYTES, key.length - SHA_BYTES,
                            StandardCharsets.UTF_8), EmbeddedRows.decodeCount(value, "refs")));
            for (String ref : union(expected, counted)) {
                long want = expected.getOrDefault(ref, 0L);
                long have = counted.getOrDefault(ref, 0L);
                if (want != have) {
                    problem("refs/" + ref + " counts " + have + " but " + want + " rows hold it");
                }
            }
            Map<String, Long> sizes = new TreeMap<>();
            scan(t.blobs, at, (key, value) -> sizes.put(Hex.encode(key), EmbeddedRows.decodeCount(value, "blobs")));
            Map<String, List<Integer>> chunkLengths = new HashMap<>();
            scan(t.chunks, at, (key, value) -> chunkLengths.computeIfAbsent(Hex.encode(Arrays.copyOf(key, SHA_BYTES)),
                    s -> new ArrayList<>()).add(value.length));
            long bytes = 0;
            for (String sha : referencedContents(expected)) {
                Long size = sizes.get(sha);
                if (size == null) {
                    problem("content " + sha + " is referenced but has no size row (freed while referenced)");
                    continue;
                }
                bytes += size;
                List<Integer> lengths = chunkLengths.getOrDefault(sha, List.of());
                int want = (int) ((size + CHUNK_BYTES - 1) / CHUNK_BYTES);
                long total = lengths.stream().mapToLong(Integer::longValue).sum();
                if (lengths.size() != want || total != size) {
                    problem("content " + sha + " of " + size + " bytes has " + lengths.size() + " chunks of " + total
                            + " bytes");
                }
            }
            List<String> referenced = referencedContents(expected);
            for (String sha : sizes.keySet()) {
                if (!referenced.contains(sha)) {
                    problem("content " + sha + " has no reference (leaked)");
                }
            }
            for (String sha : chunkLengths.keySet()) {
                if (!sizes.containsKey(sha)) {
                    problem("chunks of " + sha + " have no size row (leaked)");
                }
            }
            for (Intents.Intent i : t.intents.all()) {
                if (!t.intents.isLive(i.token())) {
                    problem("intent " + Hex.encode(i.token()) + " on " + i.sha256() + " is left by a writer that died "
                            + "(the next sweep undoes it)");
                }
            }
            return new EmbeddedObjectStore.AuditReport(objects[0] + versions[0], parts[0], referenced.size(), bytes,
                    List.copyOf(problems));
        }
    }

    private interface RowVisitor {
        void visit(byte[] key, byte[] value) throws IOException;
    }

    private static void scan(Table table, ReadOptions at, RowVisitor visitor) throws IOException {
        try (EntryIterator it = table.scan(KeyRange.all(), at)) {
            while (it.hasNext()) {
                Entry e = it.next();
                visitor.visit(e.key(), e.value());
            }
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static String refKey(String sha, byte kind, String bucket) {
        return sha + "/" + (char) kind + bucket;
    }

    private static List<String> referencedContents(Map<String, Long> expected) {
        return expected.keySet().stream().map(k -> k.substring(0, k.indexOf('/'))).distinct().toList();
    }

    private static List<String> union(Map<String, Long> a, Map<String, Long> b) {
        TreeMap<String, Boolean> all = new TreeMap<>();
        a.keySet().forEach(k -> all.put(k, true));
        b.keySet().forEach(k -> all.put(k, true));
        return new ArrayList<>(all.keySet());
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return bytes.length;
    }

    private void problem(String what) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(what);
        }
    }
}
