package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.Main;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.restore.S3Destination;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.BackupSources;
import dev.cairn.backup.source.SourceTestContent;
import dev.cairn.backup.target.DirectoryTarget;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

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
    private static final String ACCESS = "BACKUPTESTKEY";
    private static final String SECRET = "backup-test-secret-0123456789";
    private static final String MIN_PART = "--cairn.limits.min-part-size=64KB";

    @TempDir
    Path dir;

    private final Random random = new Random(41);

    private void multipart(S3Client s3, String bucket, String key, int... partSizes) {
        String upload = s3.createMultipartUpload(r -> r.bucket(bucket).key(key).contentType("image/png")
                .cacheControl("max-age=60").metadata(Map.of("origin", key))).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        for (int i = 0; i < partSizes.length; i++) {
            byte[] b = new byte[partSizes[i]];
            random.nextBytes(b);
            int n = i + 1;
            String etag = s3.uploadPart(r -> r.bucket(bucket).key(key).uploadId(upload).partNumber(n),
                    RequestBody.fromBytes(b)).eTag();
            parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
        }
        s3.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(upload).multipartUpload(m -> m.parts(parts)));
    }

    private void seed(S3Client s3) {
        s3.createBucket(r -> r.bucket("plain"));
        multipart(s3, "plain", "mp.bin", 200_000, 70_000, 130_000, 1_000);
        multipart(s3, "plain", "three.bin", 66_000, 90_000, 17);
        s3.putObject(r -> r.bucket("plain").key("small.jpg"), RequestBody.fromBytes(new byte[] {1, 2, 3}));

        s3.createBucket(r -> r.bucket("versioned"));
        s3.putBucketVersioning(r -> r.bucket("versioned").versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        multipart(s3, "versioned", "v.bin", 100_000, 65_536, 5);
        s3.putObject(r -> r.bucket("versioned").key("v.bin"), RequestBody.fromBytes(new byte[] {4, 5}));
        multipart(s3, "versioned", "v.bin", 80_000, 90_000, 66_000, 10);
    }

    /**
     * Every object version in listing order (ids and times elided): ETag, size, parts count,
     * content type and metadata, then each part of a multipart one as {@code GET ?partNumber=N}
     * serves it.
     */
    private static Map<String, String> parts(S3Client s3) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String bucket : List.of("plain", "versioned")) {
            int place = 0;
            for (ObjectVersion v : s3.listObjectVersions(r -> r.bucket(bucket)).versions()) {
                String name = bucket + "/" + v.key() + " #" + place++;
                GetObjectResponse head = s3.getObjectAsBytes(r -> r.bucket(bucket).key(v.key()).versionId(v.versionId()))
                        .response();
                out.put(name, v.eTag() + " " + v.size() + " " + head.contentType() + " " + head.cacheControl() + " "
                        + head.metadata());
                if (!v.eTag().contains("-")) {
                    continue;
                }
                int count = Integer.parseInt(v.eTag().replaceAll(".*-([0-9]+)\"?$", "$1"));
                for (int n = 1; n <= count; n++) {
                    int part = n;
                    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(bucket).key(v.key())
                            .versionId(v.versionId()).partNumber(part));
                    GetObjectResponse g = got.response();
                    out.put(name + " part " + n, SourceTestContent.sha256(got.asByteArray()) + " " + got.asByteArray().length
                            + " " + g.contentRange() + " parts=" + g.partsCount() + " " + g.eTag());
                }
            }
        }
        return out;
    }

    private int uploadsLeft(S3Client s3) {
        return s3.listMultipartUploads(r -> r.bucket("plain")).uploads().size()
                + s3.listMultipartUploads(r -> r.bucket("versioned")).uploads().size();
    }

    private String backup(Map<String, String> before) throws Exception {
        Files.writeString(dir.resolve("access"), ACCESS + "\n");
        Files.writeString(dir.resolve("secret"), SECRET + "\n");
        Path report = dir.resolve("report.json");
        try (ServiceProcess service = ServiceProcess.start(dir.resolve("data"), ACCESS, SECRET, MIN_PART);
             S3Client s3 = service.client(ACCESS, SECRET)) {
            seed(s3);
            before.putAll(parts(s3));
            assertEquals(0, Main.commandLine(BackupSources::open).execute("run", "--source", "embedded",
                    "--service-url", service.url(), "--admin-access-key-file", dir.resolve("access").toString(),
                    "--admin-secret-key-file", dir.resolve("secret").toString(),
                    "--target", "dir:" + dir.resolve("archive"), "--report", report.toString()));
        }
        assertTrue(before.containsKey("plain/mp.bin #0 part 4"), before.toString());
        assertTrue(before.containsKey("versioned/v.bin #2 part 3"), before.toString());
        return Json.read(Files.readAllBytes(report), RunReport.class, "report").backupId();
    }

    @Test
    void multipartObjectsComeBackWithTheirPartsAndAFailedUploadLeavesNoneBehind() throws Exception {
        Map<String, String> before = new LinkedHashMap<>();
        String id = backup(before);
        DirectoryTarget archive = new DirectoryTarget(dir.resolve("archive"));
        try (ServiceProcess second = ServiceProcess.start(dir.resolve("second"), ACCESS, SECRET, MIN_PART);
             S3Client s3 = second.client(ACCESS, SECRET)) {
            AtomicInteger uploaded = new AtomicInteger();
            S3Client failing = failingThirdPart(second.client(ACCESS, SECRET), uploaded);
            IOException e = assertThrows(IOException.class,
                    () -> restore(archive, id, new S3Destination(failing, "s3 " + second.url(), true), 1));
            assertTrue(e.getMessage().contains("in 4 parts") || e.getMessage().contains("in 3 parts"), e.getMessage());
            assertTrue(uploaded.get() >= 3, "parts uploaded before the failure: " + uploaded.get());
            assertEquals(0, uploadsLeft(s3));

            S3Client interrupting = interruptedAtSecondPart(second.client(ACCESS, SECRET));
            IOException stopped = assertThrows(IOException.class,
                    () -> restore(archive, id, new S3Destination(interrupting, "s3 " + second.url(), true), 1));
            assertTrue(stopped.getMessage().contains("interrupted (test)"), stopped.getMessage());
            assertEquals(0, uploadsLeft(s3));

            assertEquals(0, Main.commandLine(BackupSources::open).execute("restore", "--target", "dir:" + dir.resolve("archive"),
                    "--into", "s3", "--into-endpoint", second.url(), "--into-access-key-file", dir.resolve("access").toString(),
                    "--into-secret-key-file", dir.resolve("secret").toString(), "--replay-versions"));
            assertEquals(before, parts(s3));
            assertEquals(0, uploadsLeft(s3));
        }
    }

    @Test
    void partsUnderTheDestinationsMinimumGoInOnePutAndAreCounted() throws Exception {
        Map<String, String> before = new LinkedHashMap<>();
        String id = backup(before);
        DirectoryTarget archive = new DirectoryTarget(dir.resolve("archive"));
        try (ServiceProcess strict = ServiceProcess.start(dir.resolve("strict"), ACCESS, SECRET);
             S3Client s3 = strict.client(ACCESS, SECRET)) {
            S3Destination into = new S3Destination(strict.client(ACCESS, SECRET), "s3 " + strict.url(), true);
            restore(archive, id, into, 4);
            List<String> warnings = into.warnings();
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith("4 multipart object(s) written with one PUT"), warnings.get(0));
            assertEquals(0, uploadsLeft(s3));
            Map<String, String> after = parts(s3);
            assertEquals(before.keySet().stream().filter(k -> !k.contains(" part ")).toList(), List.copyOf(after.keySet()));
            byte[] whole = s3.getObjectAsBytes(r -> r.bucket("plain").key("mp.bin")).asByteArray();
            assertEquals(401_000, whole.length);
            assertTrue(after.get("plain/mp.bin #0").startsWith("\"" + dev.cairn.store.Hex.encode(java.security.MessageDigest.getInstance("MD5").digest(whole)) + "\""),
                    after.get("plain/mp.bin #0"));
        }
    }

    private static void restore(DirectoryTarget archive, String id, RestoreDestination into, int threads) throws Exception {
        try (Progress progress = new Progress("restore", 0, new PrintStream(new ByteArrayOutputStream()), false)) {
            new Restore(archive, id, into, Set.of(), "", false, threads, new PrintStream(new ByteArrayOutputStream()))
                    .run(progress);
        }
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
