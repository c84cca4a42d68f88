package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.restore.S3Destination;
import dev.cairn.backup.target.DirectoryTarget;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Multipart objects restored into a second Cairn over S3: uploaded in parts of different sizes
 * (a small last part) into a bucket without versioning and as versions of a versioned key, backed
 * up, restored with {@code --replay-versions}; the destination answers with the same ETags, parts
 * count and {@code GET ?partNumber=N} bytes as the source, in the same version order. An upload
 * failing after two parts, or interrupted, leaves no multipart upload at the destination, and the
 * restore resumes.
 * A destination whose minimum part size the parts are under gets them with one PUT, counted.
 */
@Tag("integration")
class S3MultipartRestoreTest {
    @TempDir
    Path dir;

    private static final String[] BUCKETS = {"plain", "versioned"};

    private String backup(RestoreFixture fixture, Map<String, String> before) throws Exception {
        try (ServiceProcess service = fixture.start("data", RestoreFixture.MIN_PART); S3Client s3 = fixture.client(service)) {
            RestoreFixture.seedMultipart(s3, new Random(41));
            before.putAll(RestoreFixture.parts(s3, false, BUCKETS));
            String id = fixture.backup(service);
            assertTrue(before.containsKey("plain/mp.bin #0 part 4"), before.toString());
            assertTrue(before.containsKey("versioned/v.bin #2 part 3"), before.toString());
            return id;
        }
    }

    @Test
    void multipartObjectsComeBackWithTheirPartsAndAFailedUploadLeavesNoneBehind() throws Exception {
        RestoreFixture fixture = new RestoreFixture(dir);
        Map<String, String> before = new LinkedHashMap<>();
        String id = backup(fixture, before);
        DirectoryTarget archive = new DirectoryTarget(fixture.archive());
        try (ServiceProcess second = fixture.start("second", RestoreFixture.MIN_PART); S3Client s3 = fixture.client(second)) {
            AtomicInteger uploaded = new AtomicInteger();
            S3Client failing = failingThirdPart(fixture.client(second), uploaded);
            IOException e = assertThrows(IOException.class,
                    () -> restore(archive, id, new S3Destination(failing, "s3 " + second.endpoint(), true), 1));
            assertTrue(e.getMessage().contains("in 4 parts") || e.getMessage().contains("in 3 parts"), e.getMessage());
            assertTrue(uploaded.get() >= 3, "parts uploaded before the failure: " + uploaded.get());
            assertEquals(0, RestoreFixture.uploadsLeft(s3, BUCKETS));

            S3Client interrupting = interruptedAtSecondPart(fixture.client(second));
            IOException stopped = assertThrows(IOException.class,
                    () -> restore(archive, id, new S3Destination(interrupting, "s3 " + second.endpoint(), true), 1));
            assertTrue(stopped.getMessage().contains("interrupted (test)"), stopped.getMessage());
            assertEquals(0, RestoreFixture.uploadsLeft(s3, BUCKETS));

            assertEquals(0, fixture.cli(fixture.restoreIntoS3(second, "--replay-versions").toArray(String[]::new)));
            assertEquals(before, RestoreFixture.parts(s3, false, BUCKETS));
            assertEquals(0, RestoreFixture.uploadsLeft(s3, BUCKETS));
        }
    }

    @Test
    void partsUnderTheDestinationsMinimumGoInOnePutAndAreCounted() throws Exception {
        RestoreFixture fixture = new RestoreFixture(dir);
        Map<String, String> before = new LinkedHashMap<>();
        String id = backup(fixture, before);
        DirectoryTarget archive = new DirectoryTarget(fixture.archive());
        try (ServiceProcess strict = fixture.start("strict"); S3Client s3 = fixture.client(strict)) {
            S3Destination into = new S3Destination(fixture.client(strict), "s3 " + strict.endpoint(), true);
            restore(archive, id, into, 4);
            List<String> warnings = into.warnings();
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith("4 multipart object(s) written with one PUT"), warnings.get(0));
            assertEquals(0, RestoreFixture.uploadsLeft(s3, BUCKETS));
            Map<String, String> after = RestoreFixture.parts(s3, false, BUCKETS);
            assertEquals(before.keySet().stream().filter(k -> !k.contains(" part ")).toList(), List.copyOf(after.keySet()));
            byte[] whole = s3.getObjectAsBytes(r -> r.bucket("plain").key("mp.bin")).asByteArray();
            assertEquals(401_000, whole.length);
            assertTrue(after.get("plain/mp.bin #0").startsWith("\"" + dev.cairn.store.Hex.encode(java.security.MessageDigest.getInstance("MD5").digest(whole)) + "\""),
                    after.get("plain/mp.bin #0"));
        }
    }

    private static void restore(DirectoryTarget archive, String id, RestoreDestination into, int threads) throws Exception {
        RestoreFixture.restore(archive, id, into, Set.of(), false, threads);
    }

    /**
     * A client whose second UploadPart finds the thread interrupted, as when the restore stops its
     * writers: the SDK gives up the call and leaves the interrupt flag set.
     */
    private static S3Client interruptedAtSecondPart(S3Client real) {
        AtomicInteger parts = new AtomicInteger();
        return (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(), new Class<?>[] {S3Client.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("uploadPart") && parts.incrementAndGet() == 2) {
                        Thread.currentThread().interrupt();
                        throw AbortedException.create("interrupted (test)");
                    }
                    if (Thread.currentThread().isInterrupted()) {
                        throw AbortedException.create("called with the interrupt flag set");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** A client whose third UploadPart fails before it is sent, as a dropped connection would. */
    private static S3Client failingThirdPart(S3Client real, AtomicInteger uploaded) {
        return (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(), new Class<?>[] {S3Client.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("uploadPart") && uploaded.incrementAndGet() == 3) {
                        throw SdkClientException.create("connection dropped (test)");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
