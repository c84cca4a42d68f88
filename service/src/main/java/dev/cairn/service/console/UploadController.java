package dev.cairn.service.console;

import dev.cairn.service.auth.CredentialsProvider;
import dev.cairn.service.auth.UriEncoding;
import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.keys.KeyRing;
import dev.cairn.service.s3.S3Context;
import dev.cairn.service.s3.S3Exception;
import dev.cairn.service.s3.SpooledBody;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.LimitedInputStream;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.PartInfo;
import dev.cairn.store.PutRequest;
import dev.cairn.store.UploadInfo;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The page script's API: uploads (the request body is the file; bodies larger than
 * {@link #MULTIPART_THRESHOLD} stream into the store's multipart upload part by part, so no
 * file is held whole) and links (the immutable {@code /_cas/} URL, or a presigned one).
 */
@RestController
@ConsoleOn
class UploadController {
    static final long MULTIPART_THRESHOLD = 16L << 20;
    static final long PART_SIZE = 8L << 20;

    private final ObjectStore store;
    private final ConsoleAccess access;
    private final CairnProperties props;
    private final S3Context s3;
    private final CredentialsProvider credentials;
    private final Presigner presigner;

    UploadController(ObjectStore store, ConsoleAccess access, CairnProperties props, S3Context s3,
                     KeyRing credentials) {
        this.store = store;
        this.access = access;
        this.props = props;
        this.s3 = s3;
        this.credentials = credentials;
        this.presigner = new Presigner(props.getRegion());
    }

    @PutMapping("/console/api/b/{bucket}/objects")
    ResponseEntity<Map<String, Object>> upload(@PathVariable("bucket") String bucket, @RequestParam("key") String key,
                                               HttpServletRequest request) throws IOException {
        Pages.require(access, ConsoleGuard.session(request), bucket, ConsoleAccess.Action.WRITE);
        if (key.isEmpty() || key.getBytes(StandardCharsets.UTF_8).length > 1024) {
            throw Pages.badRequest("a key is 1 to 1024 bytes of UTF-8");
        }
        if (store.bucket(bucket) == null) {
            throw Pages.notFound("no bucket " + bucket);
        }
        String type = request.getContentType();
        ObjectAttributes attributes = new ObjectAttributes(type == null || type.isBlank() ? "application/octet-stream" : type,
                null, null, null, null, null, Map.of());
        long length = request.getContentLengthLong();
        long max = props.getLimits().getMaxObjectSize().toBytes();
        if (length > max) {
            return ResponseEntity.status(413).body(Map.of("error", "larger than cairn.limits.max-object-size"));
        }
        try (InputStream in = request.getInputStream()) {
            ObjectInfo o = length >= 0 && length <= MULTIPART_THRESHOLD
                    ? putWhole(bucket, key, attributes, in, length, max)
                    : putInParts(bucket, key, attributes, in, max);
            return ResponseEntity.ok(Map.of("key", o.key(), "size", o.size(), "sha256", o.sha256(), "etag", o.etag()));
        } catch (S3Exception e) {
            return ResponseEntity.status(e.status()).body(Map.of("error", e.getMessage()));
        }
    }

    private ObjectInfo putWhole(String bucket, String key, ObjectAttributes attributes, InputStream in, long length, long max)
            throws IOException, S3Exception {
        try (SpooledBody body = spool(in, length, max)) {
            return store.putObject(PutRequest.of(bucket, key, body, body.md5()).withAttributes(attributes));
        }
    }

    private ObjectInfo putInParts(String bucket, String key, ObjectAttributes attributes, InputStream in, long max)
            throws IOException, S3Exception {
        long partSize = Math.max(PART_SIZE, props.getLimits().getMinPartSize().toBytes());
        UploadInfo upload = store.createUpload(bucket, key, attributes);
        boolean done = false;
        try {
            List<CompletedPart> parts = new ArrayList<>();
            long total = 0;
            while (true) {
                SpooledBody part = spool(LimitedInputStream.part(in, partSize), -1, partSize);
                try (part) {
                    if (part.size() == 0 && !parts.isEmpty()) {
                        break;
                    }
                    total += part.size();
                    if (total > max || parts.size() >= props.getLimits().getMaxParts()) {
                        throw Pages.badRequest("larger than cairn.limits.max-object-size");
                    }
                    PartInfo p = store.putPart(bucket, key, upload.uploadId(), parts.size() + 1, part);
                    parts.add(new CompletedPart(p.partNumber(), p.etag()));
                    if (part.size() < partSize) {
                        break;
                    }
                }
            }
            ObjectInfo o = store.completeUpload(CompleteRequest.of(bucket, key, upload.uploadId(),
                    parts, props.getLimits().getMinPartSize().toBytes()));
            done = true;
            return o;
        } finally {
            if (!done) {
                store.abortUpload(bucket, key, upload.uploadId());
            }
        }
    }

    private SpooledBody spool(InputStream in, long length, long max) throws IOException, S3Exception {
        return SpooledBody.read(in, length, max, s3.spool(), List.of());
    }

    @PostMapping("/console/api/b/{bucket}/link")
    Map<String, Object> link(@PathVariable("bucket") String bucket, @RequestParam("key") String key, @RequestParam("kind") String kind,
                             @RequestParam(name = "expires", defaultValue = "86400") long expires, HttpServletRequest request) throws IOException {
        ConsoleSession s = ConsoleGuard.session(request);
        Pages.require(access, s, bucket, ConsoleAccess.Action.READ);
        ObjectInfo o = store.headObject(bucket, key);
        if (o == null) {
            throw Pages.notFound("no object " + key + " in " + bucket);
        }
        if (expires < 1 || expires > Presigner.MAX_EXPIRY_SECONDS) {
            throw Pages.badRequest("expiry is 1 s to 7 days");
        }
        String host = request.getHeader("Host");
        String origin = request.getScheme() + "://" + host;
        boolean cas = kind.equals("cas");
        String path = cas ? "/_cas/" + o.sha256() : "/" + bucket + "/" + UriEncoding.encode(key, true);
        BucketInfo b = store.bucket(bucket);
        if (cas && b != null && b.acl() == BucketAcl.PUBLIC_READ) {
            return Map.of("url", origin + path, "expires", "never");
        }
        String secret = credentials.secretKey(s.accessKey())
                .orElseThrow(() -> Pages.badRequest("the access key has no secret any more"));
        Instant now = Instant.now();
        return Map.of("url", presigner.presignGet(origin, host, path, s.accessKey(), secret, expires, now),
                "expires", now.plusSeconds(expires).toString());
    }
}
