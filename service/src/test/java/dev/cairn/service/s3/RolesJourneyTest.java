package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.cairn.service.StandaloneService;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Every role against every operation the service serves, through the AWS SDK against the real
 * service: each cell of {@link #TABLE} is what docs/security.md says the role may do, and the
 * test checks both that the service does exactly that and that the doc's table is this one.
 * A refused request that names an object is sent twice, for an object that exists and for one that
 * does not: the answers must be the same, so a refusal never tells whether a key exists.
 *
 * <p>The roles are held on every bucket (a role on one bucket acts the same on it); the column
 * "admin of another bucket" holds admin on {@link #OTHER} only. The operations name {@link #BUCKET}
 * (private), {@link #OTHER} as the other side of copies, or buckets made for the cell.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RolesJourneyTest {
    /** Kept the same as docs/security.md, "Who may do what" ({@link #theDocumentedTableIsThisOne}). */
    static final String TABLE = """
            | operation | admin | read-write | read-only | write-only | metrics | backup | admin of another bucket | anonymous |
            | --- | --- | --- | --- | --- | --- | --- | --- | --- |
            | ListBuckets | yes | yes | yes | yes | no | no | yes | no |
            | CreateBucket | yes | no | no | no | no | no | no | no |
            | DeleteBucket | yes | no | no | no | no | no | no | no |
            | HeadBucket | yes | yes | yes | yes | no | no | no | no |
            | GetBucketLocation | yes | yes | yes | yes | no | no | no | no |
            | GetBucketVersioning | yes | yes | yes | yes | no | no | no | no |
            | PutBucketVersioning | yes | no | no | no | no | no | no | no |
            | GetBucketAcl | yes | yes | yes | no | no | no | no | no |
            | PutBucketAcl | yes | no | no | no | no | no | no | no |
            | GetBucketPolicy, GetBucketLogging, … (reads of configuration Cairn does not hold) | yes | yes | yes | no | no | no | no | no |
            | DeleteBucketPolicy, DeleteBucketLifecycle, … | yes | no | no | no | no | no | no | no |
            | PutBucketPolicy, PutBucketLifecycle, … | 501 | 501 | 501 | 501 | 501 | 501 | 501 | 501 |
            | PutBucketCors | yes | no | no | no | no | no | no | no |
            | GetBucketCors | yes | yes | yes | no | no | no | no | no |
            | DeleteBucketCors | yes | no | no | no | no | no | no | no |
            | CORS preflight (`OPTIONS`, never signed) | yes | yes | yes | yes | yes | yes | yes | yes |
            | ListObjects | yes | yes | yes | no | no | no | no | no |
            | ListObjectsV2 | yes | yes | yes | no | no | no | no | no |
            | ListObjectVersions | yes | yes | yes | no | no | no | no | no |
            | ListObjectsV2 of a public-read bucket | yes | yes | yes | no | no | no | no | yes |
            | ListMultipartUploads | yes | yes | yes | yes | no | no | no | no |
            | GetObject | yes | yes | yes | no | no | no | no | no |
            | GetObject of a public-read object | yes | yes | yes | no | no | no | no | yes |
            | HeadObject | yes | yes | yes | no | no | no | no | no |
            | GetObjectAttributes | yes | yes | yes | no | no | no | no | no |
            | GetObjectTagging | yes | yes | yes | no | no | no | no | no |
            | GetObjectAcl | yes | yes | yes | no | no | no | no | no |
            | PutObjectAcl | yes | yes | no | no | no | no | no | no |
            | DeleteObjectTagging | yes | yes | no | no | no | no | no | no |
            | PutObject | yes | yes | no | yes | no | no | no | no |
            | PutObject with `x-amz-acl: public-read` | yes | yes | no | yes | no | no | no | no |
            | CopyObject within the bucket | yes | yes | no | no | no | no | no | no |
            | CopyObject from the bucket to another | yes | yes | no | no | no | no | no | no |
            | CopyObject from another bucket into the bucket | yes | yes | no | no | no | no | no | no |
            | DeleteObject | yes | yes | no | yes | no | no | no | no |
            | DeleteObjects | yes | yes | no | yes | no | no | no | no |
            | CreateMultipartUpload | yes | yes | no | yes | no | no | no | no |
            | UploadPart | yes | yes | no | yes | no | no | no | no |
            | UploadPartCopy | yes | yes | no | no | no | no | no | no |
            | CompleteMultipartUpload | yes | yes | no | yes | no | no | no | no |
            | AbortMultipartUpload | yes | yes | no | yes | no | no | no | no |
            | ListParts | yes | yes | yes | yes | no | no | no | no |
            | GetObject by a URL presigned with the key | yes | yes | yes | no | no | no | no | n/a |
            | PutObject by a URL presigned with the key | yes | yes | no | yes | no | no | no | n/a |
            | `GET /_cas/{sha256}` of content only private buckets hold | yes | yes | yes | no | no | no | no | no |
            | `GET /_cas/{sha256}` of content a public-read bucket holds | yes | yes | yes | yes | no | no | yes | yes |
            | `GET /actuator/prometheus`, signed | yes | no | no | no | yes | no | no | no |
            | `GET /_admin/checkpoints` | yes | no | no | no | no | yes | no | no |
            | Sign-in to the console (`/console`) | yes | yes | yes | yes | no | no | yes | n/a |
            """;

    private static final String ROOT_KEY = "ROLESROOT";
    private static final String ROOT_SECRET = "roles-root-secret-0000000000";
    private static final String BUCKET = "roles";
    private static final String OTHER = "roles-other";
    private static final String PUBLIC_BUCKET = "roles-public";
    /** The grant of each column's key, in the table's order; null: anonymous. */
    private static final List<String> GRANTS = Arrays.asList("admin", "read-write", "read-only", "write-only",
            "metrics", "backup", "admin:" + OTHER, null);
    private static final String EXISTING = "existing";
    private static final String EXISTING_BODY = "existing object of the roles journey";
    private static final String OPEN = "open";
    private static final String PUBLIC_BODY = "content of a public-read bucket";
    private static final String MISSING_SHA256 = "0".repeat(64);
    private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");

    @TempDir
    static Path dataDir;
    private ConfigurableApplicationContext service;
    private int port;
    private S3Client root;
    private final Map<String, Actor> actors = new LinkedHashMap<>();
    private final Map<String, Op> ops = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newHttpClient();

    /** Who sends: a column of the table. {@code secret} null: anonymous. */
    private record Actor(String column, String accessKey, String secret, S3Client s3, S3Presigner presigner) {
    }

    /** What came back: the status and the S3 error code, null on success. */
    private record Outcome(int status, String code) {
        boolean ok() {
            return status / 100 == 2;
        }

        boolean accessDenied() {
            return status == 403 && (code == null || code.equals("AccessDenied"));
        }
    }

    /** One operation as {@code actor} sends it in table cell {@code cell}, on an object that exists or not. */
    @FunctionalInterface
    private interface Call {
        Outcome run(Actor actor, String cell, boolean exists) throws Exception;
    }

    /** {@code namesObject}: a refusal is also checked against the same request for an object that does not exist. */
    private record Op(String name, boolean namesObject, Call call) {
    }

    @BeforeAll
    void start() throws Exception {
        String[] header = cells(TABLE.lines().findFirst().orElseThrow());
        StringBuilder keyFile = new StringBuilder();
        for (int i = 1; i < header.length; i++) {
            String grant = GRANTS.get(i - 1);
            if (grant != null) {
                keyFile.append("ROLEKEY").append(i).append(" role-journey-secret-").append(i).append(' ')
                        .append(grant).append('\n');
            }
        }
        Path keys = dataDir.resolve("keys");
        Files.createFile(keys, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(keys, keyFile);
        service = StandaloneService.start(dataDir.resolve("data"), Map.of(
                "cairn.auth.access-key", ROOT_KEY, "cairn.auth.secret-key", ROOT_SECRET,
                "cairn.auth.keys-file", keys.toString()));
        port = StandaloneService.port(service);
        for (int i = 1; i < header.length; i++) {
            boolean anonymous = GRANTS.get(i - 1) == null;
            actors.put(header[i], actor(header[i], anonymous ? null : "ROLEKEY" + i,
                    anonymous ? null : "role-journey-secret-" + i));
        }
        root = StandaloneService.client(service, ROOT_KEY, ROOT_SECRET);
        root.createBucket(b -> b.bucket(BUCKET));
        root.createBucket(b -> b.bucket(OTHER));
        root.createBucket(b -> b.bucket(PUBLIC_BUCKET).acl(BucketCannedACL.PUBLIC_READ));
        root.putObject(b -> b.bucket(BUCKET).key(EXISTING), RequestBody.fromString(EXISTING_BODY));
        root.putObject(b -> b.bucket(BUCKET).key(OPEN).acl(ObjectCannedACL.PUBLIC_READ), RequestBody.fromString("open"));
        root.putObject(b -> b.bucket(OTHER).key(EXISTING), RequestBody.fromString("source in the other bucket"));
        root.putObject(b -> b.bucket(PUBLIC_BUCKET).key(OPEN), RequestBody.fromString(PUBLIC_BODY));
        defineOps();
    }

    @AfterAll
    void stop() {
        for (Actor a : actors.values()) {
            a.s3().close();
            if (a.presigner() != null) {
                a.presigner().close();
            }
        }
        if (root != null) {
            root.close();
        }
        if (service != null) {
            service.close();
        }
    }

    private Actor actor(String column, String key, String secret) {
        AwsCredentialsProvider credentials = key == null ? AnonymousCredentialsProvider.create()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret));
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        S3Client s3 = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials).forcePathStyle(true).build();
        S3Presigner presigner = key == null ? null : S3Presigner.builder().endpointOverride(endpoint)
                .region(Region.US_EAST_1).credentialsProvider(credentials)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
        return new Actor(column, key, secret, s3, presigner);
    }

    @TestFactory
    Stream<DynamicTest> everyRoleGetsWhatTheDocsSay() {
        List<DynamicTest> cells = new ArrayList<>();
        List<String> rows = TABLE.lines().skip(2).toList();
        String[] header = cells(TABLE.lines().findFirst().orElseThrow());
        assertEquals(ops.keySet(), new java.util.LinkedHashSet<>(rows.stream().map(r -> cells(r)[0]).toList()),
                "every operation has a row of the table and every row an operation");
        for (int row = 0; row < rows.size(); row++) {
            String[] expected = cells(rows.get(row));
            Op op = ops.get(expected[0]);
            for (int col = 1; col < header.length; col++) {
                Actor actor = actors.get(header[col]);
                String cell = "c" + row + "-" + col;
                String want = expected[col];
                cells.add(dynamicTest(op.name() + " by " + actor.column() + ": " + want,
                        () -> check(op, actor, cell, want)));
            }
        }
        return cells.stream();
    }

    private void check(Op op, Actor actor, String cell, String want) throws Exception {
        if (want.equals("n/a")) {
            return;
        }
        Outcome got = op.call().run(actor, cell, true);
        String what = op.name() + " by " + actor.column() + ": ";
        switch (want) {
            case "yes" -> assertTrue(got.ok(), what + "expected success, got " + got);
            case "no" -> {
                assertTrue(got.accessDenied(), what + "expected 403 AccessDenied, got " + got);
                if (op.namesObject()) {
                    assertEquals(got, op.call().run(actor, cell, false),
                            what + "a refusal for a missing object must be the same as for an existing one");
                }
            }
            default -> assertEquals(Integer.parseInt(want), got.status(), what + got);
        }
    }

    @Test
    void theDocumentedTableIsThisOne() throws Exception {
        List<String> doc = Files.readAllLines(Path.of("..", "docs", "security.md"), StandardCharsets.UTF_8);
        String first = TABLE.lines().findFirst().orElseThrow();
        int at = doc.indexOf(first);
        assertTrue(at >= 0, "docs/security.md has no table starting with " + first);
        List<String> documented = doc.subList(at, doc.size()).stream().takeWhile(l -> l.startsWith("|")).toList();
        assertEquals(TABLE.lines().toList(), documented, "docs/security.md and this test differ");
    }

    private static String[] cells(String row) {
        String inner = row.strip();
        inner = inner.substring(1, inner.length() - 1);
        return Arrays.stream(inner.split("\\|")).map(String::strip).toArray(String[]::new);
    }

    // ---- the operations

    private void op(String name, boolean namesObject, Call call) {
        ops.put(name, new Op(name, namesObject, call));
    }

    private static String object(String cell, boolean exists) {
        return exists ? EXISTING : "missing/" + cell;
    }

    /** An object of the cell's own, written by the root key. */
    private String prepared(String key) {
        root.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("prepared " + key));
        return key;
    }

    /** A bucket of the cell's own, made by the root key. */
    private String freshBucket(String cell) {
        String name = "roles-" + cell;
        root.createBucket(b -> b.bucket(name));
        return name;
    }

    private String upload(String key) {
        return root.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
    }

    private static Outcome sdk(Supplier<?> call) {
        try {
            Object r = call.get();
            SdkResponse response = r instanceof ResponseBytes<?> bytes ? (SdkResponse) bytes.response() : (SdkResponse) r;
            return new Outcome(response.sdkHttpResponse().statusCode(), null);
        } catch (S3Exception e) {
            return new Outcome(e.statusCode(), e.awsErrorDetails().errorCode());
        }
    }

    private Outcome http(HttpRequest request) throws Exception {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        Matcher code = CODE.matcher(r.body());
        return new Outcome(r.statusCode(), code.find() ? code.group(1) : null);
    }

    private boolean rootSees(String bucket, String key) {
        return sdk(() -> root.headObject(b -> b.bucket(bucket).key(key))).ok();
    }

    private boolean isPublic(String key) {
        return root.getObjectAcl(b -> b.bucket(BUCKET).key(key)).grants().stream()
                .anyMatch(g -> g.grantee().uri() != null && g.permission() == Permission.READ);
    }

    /** GET {@code path}, signed by the actor's key (anonymous: unsigned). */
    private Outcome signedGet(Actor a, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + port + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).GET();
        if (a.secret() != null) {
            SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(uri).build();
            var signed = AwsV4HttpSigner.create().sign(r -> r
                    .identity(AwsCredentialsIdentity.create(a.accessKey(), a.secret())).request(unsigned)
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                    .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false));
            signed.request().forEachHeader((name, values) -> {
                if (!name.equalsIgnoreCase("host")) {
                    values.forEach(v -> b.header(name, v));
                }
            });
        }
        return http(b.build());
    }

    private static String sha256(String text) throws Exception {
        return dev.cairn.store.Hex.encode(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private void defineOps() {
        op("ListBuckets", false, (a, c, e) -> sdk(() -> a.s3().listBuckets()));
        op("CreateBucket", false, (a, c, e) -> {
            Outcome o = sdk(() -> a.s3().createBucket(b -> b.bucket("made-" + c)));
            assertEquals(o.ok(), sdk(() -> root.headBucket(b -> b.bucket("made-" + c))).ok(), "made when allowed only");
            return o;
        });
        op("DeleteBucket", false, (a, c, e) -> {
            String bucket = freshBucket(c);
            Outcome o = sdk(() -> a.s3().deleteBucket(b -> b.bucket(bucket)));
            assertEquals(o.ok(), !sdk(() -> root.headBucket(b -> b.bucket(bucket))).ok(), "gone when allowed only");
            return o;
        });
        op("HeadBucket", false, (a, c, e) -> sdk(() -> a.s3().headBucket(b -> b.bucket(BUCKET))));
        op("GetBucketLocation", false, (a, c, e) -> sdk(() -> a.s3().getBucketLocation(b -> b.bucket(BUCKET))));
        op("GetBucketVersioning", false, (a, c, e) -> sdk(() -> a.s3().getBucketVersioning(b -> b.bucket(BUCKET))));
        op("PutBucketVersioning", false, (a, c, e) -> {
            String bucket = freshBucket(c);
            Outcome o = sdk(() -> a.s3().putBucketVersioning(b -> b.bucket(bucket)
                    .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED))));
            assertEquals(o.ok(), root.getBucketVersioning(b -> b.bucket(bucket)).status() != null, "set when allowed only");
            return o;
        });
        op("GetBucketAcl", false, (a, c, e) -> sdk(() -> a.s3().getBucketAcl(b -> b.bucket(BUCKET))));
        op("PutBucketAcl", false, (a, c, e) -> {
            String bucket = freshBucket(c);
            Outcome o = sdk(() -> a.s3().putBucketAcl(b -> b.bucket(bucket).acl(BucketCannedACL.PUBLIC_READ)));
            assertEquals(o.ok(), root.getBucketAcl(b -> b.bucket(bucket)).grants().size() > 1, "public when allowed only");
            return o;
        });
        op("GetBucketPolicy, GetBucketLogging, … (reads of configuration Cairn does not hold)", false, (a, c, e) -> {
            Outcome policy = sdk(() -> a.s3().getBucketPolicy(b -> b.bucket(BUCKET)));
            Outcome logging = sdk(() -> a.s3().getBucketLogging(b -> b.bucket(BUCKET)));
            // The policy's answer when allowed is S3's "none": 404 NoSuchBucketPolicy.
            assertEquals(logging.ok(), "NoSuchBucketPolicy".equals(policy.code()), policy.toString());
            return logging.ok() ? logging : policy;
        });
        op("DeleteBucketPolicy, DeleteBucketLifecycle, …", false,
                (a, c, e) -> sdk(() -> a.s3().deleteBucketPolicy(b -> b.bucket(BUCKET))));
        op("PutBucketPolicy, PutBucketLifecycle, …", false,
                (a, c, e) -> sdk(() -> a.s3().putBucketPolicy(b -> b.bucket(BUCKET).policy("{}"))));
        op("PutBucketCors", false, (a, c, e) -> {
            String bucket = freshBucket(c);
            Outcome o = sdk(() -> a.s3().putBucketCors(b -> b.bucket(bucket).corsConfiguration(r -> r.corsRules(
                    CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build()))));
            assertEquals(o.ok(), sdk(() -> root.getBucketCors(b -> b.bucket(bucket))).ok(), "set when allowed only");
            return o;
        });
        op("GetBucketCors", false, (a, c, e) -> {
            String bucket = freshBucket(c);
            root.putBucketCors(b -> b.bucket(bucket).corsConfiguration(r -> r.corsRules(
                    CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build())));
            return sdk(() -> a.s3().getBucketCors(b -> b.bucket(bucket)));
        });
        op("DeleteBucketCors", false, (a, c, e) -> {
            String bucket = freshBucket(c);
            root.putBucketCors(b -> b.bucket(bucket).corsConfiguration(r -> r.corsRules(
                    CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build())));
            Outcome o = sdk(() -> a.s3().deleteBucketCors(b -> b.bucket(bucket)));
            assertEquals(o.ok(), !sdk(() -> root.getBucketCors(b -> b.bucket(bucket))).ok(), "gone when allowed only");
            return o;
        });
        op("CORS preflight (`OPTIONS`, never signed)", false, (a, c, e) -> {
            String bucket = freshBucket(c);
            root.putBucketCors(b -> b.bucket(bucket).corsConfiguration(r -> r.corsRules(
                    CORSRule.builder().allowedOrigins("https://app.example").allowedMethods("PUT").build())));
            return http(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + bucket + "/k"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", "https://app.example")
                    .header("Access-Control-Request-Method", "PUT").build());
        });
        op("ListObjects", false, (a, c, e) -> sdk(() -> a.s3().listObjects(b -> b.bucket(BUCKET))));
        op("ListObjectsV2", false, (a, c, e) -> sdk(() -> a.s3().listObjectsV2(b -> b.bucket(BUCKET))));
        op("ListObjectVersions", false, (a, c, e) -> sdk(() -> a.s3().listObjectVersions(b -> b.bucket(BUCKET))));
        op("ListObjectsV2 of a public-read bucket", false,
                (a, c, e) -> sdk(() -> a.s3().listObjectsV2(b -> b.bucket(PUBLIC_BUCKET))));
        op("ListMultipartUploads", false, (a, c, e) -> sdk(() -> a.s3().listMultipartUploads(b -> b.bucket(BUCKET))));
        op("GetObject", true, (a, c, e) -> sdk(() -> a.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key(object(c, e)))));
        op("GetObject of a public-read object", false,
                (a, c, e) -> sdk(() -> a.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key(OPEN))));
        op("HeadObject", true, (a, c, e) -> sdk(() -> a.s3().headObject(b -> b.bucket(BUCKET).key(object(c, e)))));
        op("GetObjectAttributes", true, (a, c, e) -> sdk(() -> a.s3().getObjectAttributes(b -> b.bucket(BUCKET)
                .key(object(c, e)).objectAttributes(ObjectAttributes.E_TAG))));
        op("GetObjectTagging", true, (a, c, e) -> sdk(() -> a.s3().getObjectTagging(b -> b.bucket(BUCKET).key(object(c, e)))));
        op("GetObjectAcl", true, (a, c, e) -> sdk(() -> a.s3().getObjectAcl(b -> b.bucket(BUCKET).key(object(c, e)))));
        op("PutObjectAcl", true, (a, c, e) -> {
            String key = e ? prepared("acl/" + c) : object(c, false);
            Outcome o = sdk(() -> a.s3().putObjectAcl(b -> b.bucket(BUCKET).key(key).acl(ObjectCannedACL.PUBLIC_READ)));
            if (e) {
                assertEquals(o.ok(), isPublic(key), "public-read when allowed only");
            }
            return o;
        });
        op("DeleteObjectTagging", true,
                (a, c, e) -> sdk(() -> a.s3().deleteObjectTagging(b -> b.bucket(BUCKET).key(object(c, e)))));
        op("PutObject", false, (a, c, e) -> {
            Outcome o = sdk(() -> a.s3().putObject(b -> b.bucket(BUCKET).key("put/" + c), RequestBody.fromString(c)));
            assertEquals(o.ok(), rootSees(BUCKET, "put/" + c), "written when allowed only");
            return o;
        });
        op("PutObject with `x-amz-acl: public-read`", false, (a, c, e) -> {
            Outcome o = sdk(() -> a.s3().putObject(b -> b.bucket(BUCKET).key("public/" + c)
                    .acl(ObjectCannedACL.PUBLIC_READ), RequestBody.fromString(c)));
            assertEquals(o.ok(), rootSees(BUCKET, "public/" + c) && isPublic("public/" + c), "written when allowed only");
            return o;
        });
        op("CopyObject within the bucket", true, (a, c, e) -> sdk(() -> a.s3().copyObject(b -> b
                .sourceBucket(BUCKET).sourceKey(object(c, e)).destinationBucket(BUCKET).destinationKey("copy/" + c))));
        op("CopyObject from the bucket to another", true, (a, c, e) -> sdk(() -> a.s3().copyObject(b -> b
                .sourceBucket(BUCKET).sourceKey(object(c, e)).destinationBucket(OTHER).destinationKey("copy/" + c))));
        op("CopyObject from another bucket into the bucket", false, (a, c, e) -> sdk(() -> a.s3().copyObject(b -> b
                .sourceBucket(OTHER).sourceKey(EXISTING).destinationBucket(BUCKET).destinationKey("copy-in/" + c))));
        op("DeleteObject", true, (a, c, e) -> {
            String key = e ? prepared("delete/" + c) : object(c, false);
            Outcome o = sdk(() -> a.s3().deleteObject(b -> b.bucket(BUCKET).key(key)));
            if (e) {
                assertEquals(o.ok(), !rootSees(BUCKET, key), "deleted when allowed only");
            }
            return o;
        });
        op("DeleteObjects", true, (a, c, e) -> {
            String key = e ? prepared("batch/" + c) : object(c, false);
            Outcome o = sdk(() -> a.s3().deleteObjects(b -> b.bucket(BUCKET)
                    .delete(d -> d.objects(ObjectIdentifier.builder().key(key).build()))));
            if (e) {
                assertEquals(o.ok(), !rootSees(BUCKET, key), "deleted when allowed only");
            }
            return o;
        });
        op("CreateMultipartUpload", false,
                (a, c, e) -> sdk(() -> a.s3().createMultipartUpload(b -> b.bucket(BUCKET).key("mpu/" + c))));
        op("UploadPart", false, (a, c, e) -> {
            String id = upload("mpu/" + c);
            return sdk(() -> a.s3().uploadPart(b -> b.bucket(BUCKET).key("mpu/" + c).uploadId(id).partNumber(1),
                    RequestBody.fromString("part")));
        });
        op("UploadPartCopy", true, (a, c, e) -> {
            String id = upload("mpu/" + c);
            return sdk(() -> a.s3().uploadPartCopy(b -> b.sourceBucket(BUCKET).sourceKey(object(c, e))
                    .destinationBucket(BUCKET).destinationKey("mpu/" + c).uploadId(id).partNumber(1)));
        });
        op("CompleteMultipartUpload", false, (a, c, e) -> {
            String id = upload("mpu/" + c);
            String etag = root.uploadPart(b -> b.bucket(BUCKET).key("mpu/" + c).uploadId(id).partNumber(1),
                    RequestBody.fromString("part")).eTag();
            Outcome o = sdk(() -> a.s3().completeMultipartUpload(b -> b.bucket(BUCKET).key("mpu/" + c).uploadId(id)
                    .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build()))));
            assertEquals(o.ok(), rootSees(BUCKET, "mpu/" + c), "completed when allowed only");
            return o;
        });
        op("AbortMultipartUpload", false, (a, c, e) -> {
            String id = upload("mpu/" + c);
            return sdk(() -> a.s3().abortMultipartUpload(b -> b.bucket(BUCKET).key("mpu/" + c).uploadId(id)));
        });
        op("ListParts", false, (a, c, e) -> {
            String id = upload("mpu/" + c);
            return sdk(() -> a.s3().listParts(b -> b.bucket(BUCKET).key("mpu/" + c).uploadId(id)));
        });
        op("GetObject by a URL presigned with the key", true, (a, c, e) -> {
            URI url = a.presigner().presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(BUCKET).key(object(c, e)))).url().toURI();
            return http(HttpRequest.newBuilder(url).GET().build());
        });
        op("PutObject by a URL presigned with the key", false, (a, c, e) -> {
            URI url = a.presigner().presignPutObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                    .putObjectRequest(g -> g.bucket(BUCKET).key("presigned/" + c))).url().toURI();
            Outcome o = http(HttpRequest.newBuilder(url).PUT(HttpRequest.BodyPublishers.ofString(c)).build());
            assertEquals(o.ok(), rootSees(BUCKET, "presigned/" + c), "written when allowed only");
            return o;
        });
        op("`GET /_cas/{sha256}` of content only private buckets hold", true,
                (a, c, e) -> signedGet(a, "/_cas/" + (e ? sha256(EXISTING_BODY) : MISSING_SHA256)));
        op("`GET /_cas/{sha256}` of content a public-read bucket holds", false,
                (a, c, e) -> signedGet(a, "/_cas/" + sha256(PUBLIC_BODY)));
        op("`GET /actuator/prometheus`, signed", false, (a, c, e) -> signedGet(a, "/actuator/prometheus"));
        op("`GET /_admin/checkpoints`", false, (a, c, e) -> signedGet(a, "/_admin/checkpoints"));
        op("Sign-in to the console (`/console`)", false, (a, c, e) -> consoleSignIn(a));
    }

    /** The console's sign-in form, as a browser fills it in: 303 to the buckets is a success. */
    private Outcome consoleSignIn(Actor a) throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new java.net.CookieManager()).build();
        String base = "http://127.0.0.1:" + port;
        String form = browser.send(HttpRequest.newBuilder(URI.create(base + "/console/login")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher token = Pattern.compile("name=\"signin\" value=\"([^\"]+)\"").matcher(form);
        assertTrue(token.find(), form);
        String body = "accessKey=" + a.accessKey() + "&secretKey=" + URLEncoder.encode(a.secret(), StandardCharsets.UTF_8)
                + "&signin=" + URLEncoder.encode(token.group(1), StandardCharsets.UTF_8);
        HttpResponse<String> r = browser.send(HttpRequest.newBuilder(URI.create(base + "/console/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 303 ? new Outcome(200, null) : new Outcome(r.statusCode(), null);
    }
}
