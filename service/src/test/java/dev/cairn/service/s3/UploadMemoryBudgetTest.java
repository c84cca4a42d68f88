package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.StandaloneService;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Upload bodies share one memory budget ({@code cairn.limits.spool-memory-budget}): while one
 * upload holds it, the next small upload spools to a file instead of adding to the heap, and both
 * are stored byte for byte. The first upload is held inside the service by the 100-continue
 * handshake: the 100 goes out when the handler first reads the body, after it reserved memory.
 */
@Tag("integration")
class UploadMemoryBudgetTest {
    private static final String ACCESS = "AKIDMEMORYBUDGET0001";
    private static final String SECRET = "memory/budget+secret=key000000000000000000";
    private static final int BODY = 40 * 1024;

    @TempDir
    Path dataDir;

    @Test
    void whileOneUploadHoldsTheBudgetTheNextSpoolsAndBothAreStoredExactly() throws Exception {
        byte[] held = bytes(1);
        byte[] next = bytes(2);
        try (ConfigurableApplicationContext ctx = StandaloneService.start(dataDir, Map.of(
                "cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET,
                "cairn.limits.spool-memory-threshold", "64KB",
                "cairn.limits.spool-memory-budget", "48KB"));
             S3Client s3 = StandaloneService.client(ctx, ACCESS, SECRET)) {
            MemoryBudget budget = ctx.getBean(S3Context.class).spool().budget();
            s3.createBucket(b -> b.bucket("budget"));
            int port = StandaloneService.port(ctx);
            RawS3.Wire first = new RawS3(port, ACCESS, SECRET).signPut("/budget/held", held, false, false, Map.of());
            RawS3.Response firstAnswer;
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(60_000);
                OutputStream out = s.getOutputStream();
                out.write((first.head() + "Expect: 100-continue\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                assertEquals(100, RawS3.read(s.getInputStream()).status());
                assertEquals(BODY, budget.used(), "the first upload holds its size of the budget");

                s3.putObject(b -> b.bucket("budget").key("next"), RequestBody.fromBytes(next));
                assertEquals(1, budget.refusals(), "the second upload found the budget spent");

                out.write(first.body());
                out.flush();
                firstAnswer = RawS3.read(s.getInputStream());
            }
            assertEquals(200, firstAnswer.status(), firstAnswer.body());
            assertArrayEquals(held, s3.getObjectAsBytes(b -> b.bucket("budget").key("held")).asByteArray());
            assertArrayEquals(next, s3.getObjectAsBytes(b -> b.bucket("budget").key("next")).asByteArray());
            // A body is given back after its answer has gone out: wait for it, and for the spool file to go.
            awaitZero("memory held", budget::used);
            awaitZero("spool files", () -> spoolFiles(dataDir.resolve("spool")));
            s3.putObject(b -> b.bucket("budget").key("again"), RequestBody.fromBytes(next));
            assertEquals(1, budget.refusals(), "with the budget free again, a body stays in memory");
            assertArrayEquals(next, s3.getObjectAsBytes(b -> b.bucket("budget").key("again")).asByteArray());
        }
    }

    private static byte[] bytes(long seed) {
        byte[] b = new byte[BODY];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static long spoolFiles(Path dir) {
        try (var files = Files.list(dir)) {
            return files.count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void awaitZero(String what, LongSupplier value) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (value.getAsLong() != 0) {
            assertTrue(System.nanoTime() < deadline, what + " still " + value.getAsLong() + " after 60 s");
            Thread.sleep(20);
        }
    }
}
