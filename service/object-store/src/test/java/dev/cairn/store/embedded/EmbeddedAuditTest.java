package dev.cairn.store.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.PartInfo;
import dev.cairn.store.PutRequest;
import dev.cairn.store.UploadInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The audit finds exact counts exact, and names a count that is off, freed content and leaked content. */
class EmbeddedAuditTest {

    private static Engine engine() throws IOException {
        return Engine.open(EngineOptions.builder(Path.of("/db")).fileSystem(new MemFileSystem()).memtableBytes(1 << 20)
                .rowCacheBytes(0).build());
    }

    private static String fill(EmbeddedObjectStore store) throws IOException {
        store.createBucket("a", BucketAcl.PRIVATE);
        store.createBucket("b", BucketAcl.PRIVATE);
        BytesContent shared = BytesContent.of("shared".getBytes(StandardCharsets.UTF_8));
        for (String bucket : new String[] {"a", "b"}) {
            store.putObject(PutRequest.of(bucket, "x", shared, shared.md5()));
            store.putObject(PutRequest.of(bucket, "y", shared, shared.md5()));
        }
        BytesContent big = BytesContent.of(new byte[EmbeddedObjectStore.CHUNK_BYTES + 5]);
        store.putObject(PutRequest.of("a", "big", big, big.md5()));
        UploadInfo open = store.createUpload("a", "open", ObjectAttributes.EMPTY);
        store.putPart("a", "open", open.uploadId(), 1, shared);
        UploadInfo done = store.createUpload("b", "done", ObjectAttributes.EMPTY);
        PartInfo part = store.putPart("b", "done", done.uploadId(), 1, BytesContent.of("whole".getBytes(StandardCharsets.UTF_8)));
        store.completeUpload(CompleteRequest.of("b", "done", done.uploadId(),
                List.of(new CompletedPart(1, part.etag())), 0));
        store.putObject(PutRequest.of("b", "gone", big, big.md5()));
        store.deleteObject("b", "gone");
        return shared.sha256();
    }

    @Test
    void exactCountsHaveNoProblem() throws IOException {
        try (Engine engine = engine(); EmbeddedObjectStore store = new EmbeddedObjectStore(engine)) {
            fill(store);
            EmbeddedObjectStore.AuditReport report = store.audit();
            assertEquals(List.of(), report.problems());
            assertEquals(6, report.objects());
            assertEquals(1, report.parts());
        }
    }

    @Test
    void aCountOffByOneFreedContentAndLeakedContentAreNamed() throws IOException {
        try (Engine engine = engine(); EmbeddedObjectStore store = new EmbeddedObjectStore(engine)) {
            String shared = fill(store);
            engine.table("refs").put(EmbeddedKeys.concat(Hex.decode(shared), "ob".getBytes(StandardCharsets.UTF_8)),
                    EmbeddedRows.encodeCount(3));
            String orphan = Hex.encode(new byte[32]);
            engine.table("blobs").put(new byte[32], EmbeddedRows.encodeCount(1));
            engine.table("chunks").put(EmbeddedKeys.chunkKey(orphan, 0), new byte[1]);
            List<String> problems = store.audit().problems();
            assertTrue(problems.stream().anyMatch(p -> p.contains("refs/" + shared + "/ob counts 3 but 2")), problems.toString());
            assertTrue(problems.stream().anyMatch(p -> p.contains(orphan) && p.contains("leaked")), problems.toString());

            engine.table("blobs").delete(Hex.decode(shared));
            problems = store.audit().problems();
            assertTrue(problems.stream().anyMatch(p -> p.contains(shared) && p.contains("freed while referenced")),
                    problems.toString());
        }
    }
}
