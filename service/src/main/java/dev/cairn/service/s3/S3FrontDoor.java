package dev.cairn.service.s3;

import dev.cairn.store.StoreException;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The S3 front door: gives every request an id, resolves its addressing, authenticates and
 * authorises it, routes it to the handler of its operation family, and turns failures into S3
 * XML errors. Records metrics and writes the access log. It sees requests through
 * {@link HttpExchange} only; {@link JettyS3Handler} puts it in front of the servlet context, so
 * S3 requests pay for no servlet, filter or Spring; requests under {@code /actuator} go on to
 * Spring.
 *
 * <p>Thread-safety: stateless apart from thread-safe collaborators; one instance serves all.
 */
public final class S3FrontDoor {
    private static final Logger LOG = LoggerFactory.getLogger(S3FrontDoor.class);
    private static final Logger ACCESS = LoggerFactory.getLogger("dev.cairn.service.access");
    private static final String ACTUATOR = "/actuator";

    /**
     * Sub-resources S3 has and Cairn does not: answered NotImplemented, never a wrong success
     * (a bucket's {@code cors} is routed before, so only an object's is refused).
     */
    private static final Set<String> UNSUPPORTED = Set.of("accelerate", "analytics", "attributes", "cors",
            "encryption", "intelligent-tiering", "inventory", "legal-hold", "lifecycle", "logging", "metrics",
            "notification", "object-lock", "ownershipControls", "policy", "policyStatus", "publicAccessBlock",
            "replication", "requestPayment", "restore", "retention", "select", "tagging", "torrent", "website",
            "session", "renameObject");

    private final S3Context ctx;
    private final S3Metrics metrics;
    private final BucketHandler buckets;
    private final ListingHandler listings;
    private final ObjectReadHandler reads;
    private final ObjectWriteHandler writes;
    private final MultipartHandler multipart;
    private final UnsetConfigurationHandler unset;
    private final ObjectAttributesHandler attributes;
    private final CorsHandler cors;
    private final String idPrefix;
    private final AtomicLong ids = new AtomicLong();
    private final AdminRoute admin;
    private final Authorizer authorizer;

    /** Every signed request is the admin's; no admin endpoint. */
    public S3FrontDoor(S3Context ctx, S3Metrics metrics) {
        this(ctx, metrics, null, null);
    }

    /**
     * @param admin answers {@code /_admin/} paths (no bucket name starts with {@code _}); null: none
     * @param keys  what each access key may do; null: every signed request may do everything
     */
    public S3FrontDoor(S3Context ctx, S3Metrics metrics, AdminRoute admin,
                       dev.cairn.service.keys.KeyRing keys) {
        this(ctx, metrics, admin, keys, null);
    }

    /** @param variants answers GETs that ask for image variants; null: none */
    public S3FrontDoor(S3Context ctx, S3Metrics metrics, AdminRoute admin,
                       dev.cairn.service.keys.KeyRing keys, VariantRoute variants) {
        this.admin = admin;
        this.authorizer = new Authorizer(ctx, keys);
        this.ctx = ctx;
        this.metrics = metrics;
        this.buckets = new BucketHandler(ctx);
        this.listings = new ListingHandler(ctx, buckets);
        this.reads = new ObjectReadHandler(ctx, variants);
        this.writes = new ObjectWriteHandler(ctx);
        this.multipart = new MultipartHandler(ctx, buckets);
        this.unset = new UnsetConfigurationHandler(ctx);
        this.attributes = new ObjectAttributesHandler(ctx);
        this.cors = new CorsHandler(ctx);
        this.idPrefix = String.format("%06X", new SecureRandom().nextInt(1 << 24));
    }

    /** Bytes of answers written detached and not yet taken by slow readers ({@code cairn.limits.pending-answer-bytes}). */
    public PendingAnswers pendingAnswers() {
        return reads.pendingAnswers();
    }

    /**
     * Whether a path is the operations endpoint's; it is S3's all the same when the request is
     * virtual-hosted ({@link #isVirtualHosted}).
     */
    static boolean isActuator(String rawPath) {
        return rawPath != null && (rawPath.equals(ACTUATOR) || rawPath.startsWith(ACTUATOR + "/"));
    }

    /** Counts a request that {@link JettyS3Handler} tried in place and handed to a pool thread. */
    void handedOff() {
        metrics.handedOff();
    }

    /** Whether a host names a bucket under one of the virtual-host domains. */
    boolean isVirtualHosted(String serverName) {
        return S3Request.virtualHostBucket(serverName, ctx.properties().getVirtualHostDomains()) != null;
    }

    /**
     * Answers one S3 request completely, errors included.
     *
     * @throws IOException only when the client is gone or the response broke after it was committed
     */
    public void serve(HttpExchange http) throws IOException {
        String uri = http.rawPath();
        if (admin != null && AdminRoute.isAdmin(uri) && !isVirtualHosted(http.serverName())) {
            if (!http.mayBlock()) {
                throw WouldBlock.INSTANCE;
            }
            admin.serve(http);
            return;
        }
        long start = System.nanoTime();
        String requestId = requestId(ids.incrementAndGet());
        http.setHeader("x-amz-request-id", requestId);
        http.setHeader("x-amz-id-2", requestId);
        S3Request r = null;
        String errorCode = null;
        try {
            r = new S3Request(http, requestId, ctx.properties().getVirtualHostDomains());
            S3Exception routing = null;
            try {
                r.operation = route(r);
            } catch (S3Exception e) {
                routing = e;
            }
            if (!http.mayBlock() && (routing != null || !reads.inMemory(r))) {
                throw WouldBlock.INSTANCE;
            }
            if (r.bucket != null) {
                // The one bucket lookup of a request: its CORS headers here, an anonymous request's ACL later.
                r.bucketInfo = ctx.store().bucket(r.bucket);
                r.bucketKnown = true;
                r.cors = CorsHandler.headersFor(r, r.bucketInfo);
                CorsHandler.setHeaders(http, r.cors);
            }
            if (routing == null && r.operation == Operation.PREFLIGHT) {
                cors.preflight(r);
                return;
            }
            r.auth = ctx.authenticator().authenticate(http);
            if (routing != null) {
                throw routing;
            }
            dispatch(r, authorizer.check(r));
        } catch (WouldBlock e) {
            throw e;
        } catch (S3Exception e) {
            errorCode = e.code();
            sendError(http, r, e.status(), e.code(), e.getMessage(), e.region(), e.details(), requestId);
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.DATA_CORRUPTED) {
                LOG.error("request {}: stored data failed its check: {}", requestId, e.getMessage());
            } else if (e.reason() == StoreException.Reason.INSUFFICIENT_STORAGE) {
                LOG.warn("request {}: refused, the disk is full: {}", requestId, e.getMessage());
            }
            S3Error err = map(e.reason());
            errorCode = err.code();
            sendError(http, r, err.status(), err.code(), err.message(), requestId);
        } catch (dev.cairn.store.StoreUnavailableException e) {
            errorCode = S3Error.SLOW_DOWN.code();
            sendError(http, r, 503, errorCode, S3Error.SLOW_DOWN.message(), requestId);
        } catch (IOException | RuntimeException e) {
            if (!http.isCommitted() && isNoSpace(e)) {
                // The engine refused the write, or spooling the body hit a full disk: nothing was stored.
                LOG.warn("request {}: refused, the disk is full: {}", requestId, e.getMessage());
                errorCode = S3Error.INSUFFICIENT_STORAGE.code();
                sendError(http, r, S3Error.INSUFFICIENT_STORAGE.status(), errorCode,
                        S3Error.INSUFFICIENT_STORAGE.message(), requestId);
            } else if (http.isCommitted() || isClientGone(e)) {
                errorCode = "ClientAbort";
                LOG.debug("request {}: connection lost: {}", requestId, e.toString());
                throw e instanceof IOException io ? io : new IOException(e);
            } else {
                LOG.error("request {} failed", requestId, e);
                errorCode = S3Error.INTERNAL_ERROR.code();
                sendError(http, r, 500, errorCode, S3Error.INTERNAL_ERROR.message(), requestId);
            }
        } finally {
            S3Request done = r;
            String code = errorCode;
            http.whenComplete(failure -> record(http, done, requestId, uri, start,
                    failure != null && code == null ? "ClientAbort" : code));
        }
    }

    /** Metrics and the access log of an answer, once it is complete. */
    private void record(HttpExchange http, S3Request r, String requestId, String uri, long start, String errorCode) {
        long nanos = System.nanoTime() - start;
        Operation op = r == null ? Operation.UNSUPPORTED : r.operation;
        long in = r == null ? 0 : r.bytesIn;
        long out = r == null ? 0 : r.bytesOut;
        metrics.record(op, nanos, in, out, errorCode);
        if (ACCESS.isInfoEnabled()) {
            String who = r == null || r.auth == null || r.auth.isAnonymous() ? "-" : r.auth.accessKey();
            ACCESS.info("{} {} {} {} {} {} {} {} {}us {}", requestId, http.remoteAddr(), http.method(), uri, http.status(), op.apiName(), in, out, nanos / 1000, who);
        }
    }

    /** The process's random prefix and a counter, 16 upper-case hex digits in all. */
    private String requestId(long n) {
        char[] id = new char[16];
        idPrefix.getChars(0, 6, id, 0);
        for (int i = 15; i >= 6; i--) {
            id[i] = HEX[(int) (n & 15)];
            n >>>= 4;
        }
        return new String(id);
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private static boolean isClientGone(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.eclipse.jetty.io.EofException || t instanceof java.nio.channels.ClosedChannelException) {
                return true;
            }
        }
        return false;
    }

    private Operation route(S3Request r) throws S3Exception {
        String m = r.method();
        if (m.equals("OPTIONS")) {
            return Operation.PREFLIGHT;
        }
        if (r.cas) {
            if (m.equals("GET") || m.equals("HEAD")) {
                return Operation.GET_CONTENT;
            }
            throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
        }
        if (r.bucket != null && r.key == null && r.hasParam("cors")) {
            switch (m) {
                case "GET":
                    return Operation.GET_BUCKET_CORS;
                case "PUT":
                    return Operation.PUT_BUCKET_CORS;
                case "DELETE":
                    return Operation.DELETE_BUCKET_CORS;
                default:
                    throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
            }
        }
        Operation unset = readOfUnsetConfiguration(r);
        if (unset != null) {
            return unset;
        }
        for (String name : r.query.keySet()) {
            if (UNSUPPORTED.contains(name)) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, "the " + name + " sub-resource is not supported");
            }
        }
        if (r.bucket == null) {
            if (m.equals("GET")) {
                return Operation.LIST_BUCKETS;
            }
            throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
        }
        if (r.key == null) {
            switch (m) {
                case "GET":
                    if (r.hasParam("location")) {
                        return Operation.GET_BUCKET_LOCATION;
                    }
                    if (r.hasParam("versioning")) {
                        return Operation.GET_BUCKET_VERSIONING;
                    }
                    if (r.hasParam("acl")) {
                        return Operation.GET_BUCKET_ACL;
                    }
                    if (r.hasParam("versions")) {
                        return Operation.LIST_OBJECT_VERSIONS;
                    }
                    if (r.hasParam("uploads")) {
                        return Operation.LIST_MULTIPART_UPLOADS;
                    }
                    if (r.hasParam("list-type")) {
                        if (!"2".equals(r.param("list-type"))) {
                            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid list type");
                        }
                        return Operation.LIST_OBJECTS_V2;
                    }
                    return Operation.LIST_OBJECTS;
                case "HEAD":
                    return Operation.HEAD_BUCKET;
                case "PUT":
                    if (r.hasParam("acl")) {
                        return Operation.PUT_BUCKET_ACL;
                    }
                    if (r.hasParam("versioning")) {
                        return Operation.PUT_BUCKET_VERSIONING;
                    }
                    return Operation.CREATE_BUCKET;
                case "DELETE":
                    return Operation.DELETE_BUCKET;
                case "POST":
                    if (r.hasParam("delete")) {
                        return Operation.DELETE_OBJECTS;
                    }
                    throw new S3Exception(S3Error.NOT_IMPLEMENTED, "POST uploads are not supported");
                default:
                    throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
            }
        }
        switch (m) {
            case "GET":
                if (r.hasParam("uploadId")) {
                    return Operation.LIST_PARTS;
                }
                if (r.hasParam("acl")) {
                    return Operation.GET_OBJECT_ACL;
                }
                return Operation.GET_OBJECT;
            case "HEAD":
                return Operation.HEAD_OBJECT;
            case "PUT":
                if (r.hasParam("acl")) {
                    return Operation.PUT_OBJECT_ACL;
                }
                if (r.hasParam("uploadId") || r.hasParam("partNumber")) {
                    return r.header("x-amz-copy-source") != null ? Operation.UPLOAD_PART_COPY : Operation.UPLOAD_PART;
                }
                return r.header("x-amz-copy-source") != null ? Operation.COPY_OBJECT : Operation.PUT_OBJECT;
            case "DELETE":
                return r.hasParam("uploadId") ? Operation.ABORT_MULTIPART_UPLOAD : Operation.DELETE_OBJECT;
            case "POST":
                if (r.hasParam("uploads")) {
                    return Operation.CREATE_MULTIPART_UPLOAD;
                }
                if (r.hasParam("uploadId")) {
                    return Operation.COMPLETE_MULTIPART_UPLOAD;
                }
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, "this POST is not supported");
            default:
                throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
        }
    }

    /**
     * Reads of what Cairn never holds, answered with S3's "none" ({@link UnsetConfigurationHandler}),
     * and GetObjectAttributes; null for any other request.
     */
    private static Operation readOfUnsetConfiguration(S3Request r) {
        if (r.bucket == null) {
            return null;
        }
        String m = r.method();
        if (r.key == null) {
            if (m.equals("DELETE") && UnsetConfigurationHandler.deletableSubresource(r) != null) {
                return Operation.DELETE_BUCKET_CONFIGURATION;
            }
            return m.equals("GET") && UnsetConfigurationHandler.bucketSubresource(r) != null
                    ? Operation.GET_BUCKET_CONFIGURATION : null;
        }
        if (r.hasParam("tagging")) {
            return m.equals("GET") ? Operation.GET_OBJECT_TAGGING
                    : m.equals("DELETE") ? Operation.DELETE_OBJECT_TAGGING : null;
        }
        return m.equals("GET") && r.hasParam("attributes") ? Operation.GET_OBJECT_ATTRIBUTES : null;
    }

    /** {@code publicOnly}: the request may read only what is public-read ({@link Authorizer#check}). */
    private void dispatch(S3Request r, boolean publicOnly) throws IOException, S3Exception {
        switch (r.operation) {
            case LIST_BUCKETS -> buckets.listBuckets(r, authorizer.visibleBuckets(r));
            case CREATE_BUCKET -> buckets.createBucket(r);
            case HEAD_BUCKET -> buckets.headBucket(r);
            case DELETE_BUCKET -> buckets.deleteBucket(r);
            case GET_BUCKET_LOCATION -> buckets.getLocation(r);
            case GET_BUCKET_VERSIONING -> buckets.getVersioning(r);
            case PUT_BUCKET_VERSIONING -> buckets.putVersioning(r);
            case GET_BUCKET_ACL -> buckets.getBucketAcl(r);
            case PUT_BUCKET_ACL -> buckets.putBucketAcl(r);
            case GET_OBJECT_ACL -> buckets.getObjectAcl(r);
            case PUT_OBJECT_ACL -> buckets.putObjectAcl(r);
            case LIST_OBJECTS -> listings.listV1(r);
            case LIST_OBJECTS_V2 -> listings.listV2(r);
            case LIST_OBJECT_VERSIONS -> listings.listVersions(r);
            case LIST_MULTIPART_UPLOADS -> listings.listUploads(r);
            case PUT_OBJECT -> writes.putObject(r);
            case COPY_OBJECT -> writes.copyObject(r);
            case DELETE_OBJECT -> writes.deleteObject(r);
            case DELETE_OBJECTS -> writes.deleteObjects(r);
            case GET_OBJECT -> reads.getObject(r, true, publicOnly);
            case HEAD_OBJECT -> reads.getObject(r, false, publicOnly);
            case GET_CONTENT -> reads.getContent(r, r.method().equals("GET"), publicOnly);
            case CREATE_MULTIPART_UPLOAD -> multipart.create(r);
            case UPLOAD_PART -> multipart.uploadPart(r);
            case UPLOAD_PART_COPY -> multipart.uploadPartCopy(r);
            case COMPLETE_MULTIPART_UPLOAD -> multipart.complete(r);
            case ABORT_MULTIPART_UPLOAD -> multipart.abort(r);
            case LIST_PARTS -> multipart.listParts(r);
            case GET_BUCKET_CONFIGURATION -> unset.getBucketConfiguration(r);
            case DELETE_BUCKET_CONFIGURATION -> unset.deleteBucketConfiguration(r);
            case GET_OBJECT_TAGGING -> unset.getObjectTagging(r);
            case DELETE_OBJECT_TAGGING -> unset.deleteObjectTagging(r);
            case GET_OBJECT_ATTRIBUTES -> attributes.getObjectAttributes(r);
            case PUT_BUCKET_CORS -> cors.putBucketCors(r);
            case GET_BUCKET_CORS -> cors.getBucketCors(r);
            case DELETE_BUCKET_CORS -> cors.deleteBucketCors(r);
            case PREFLIGHT -> cors.preflight(r);
            case UNSUPPORTED -> throw new S3Exception(S3Error.NOT_IMPLEMENTED);
        }
    }

    static S3Error map(StoreException.Reason reason) {
        return switch (reason) {
            case NO_SUCH_BUCKET -> S3Error.NO_SUCH_BUCKET;
            case BUCKET_EXISTS -> S3Error.BUCKET_ALREADY_OWNED_BY_YOU;
            case BUCKET_NOT_EMPTY -> S3Error.BUCKET_NOT_EMPTY;
            case NO_SUCH_KEY, CONTENT_GONE -> S3Error.NO_SUCH_KEY;
            case NO_SUCH_UPLOAD -> S3Error.NO_SUCH_UPLOAD;
            case PRECONDITION_FAILED -> S3Error.PRECONDITION_FAILED;
            case INVALID_PART -> S3Error.INVALID_PART;
            case INVALID_PART_ORDER -> S3Error.INVALID_PART_ORDER;
            case ENTITY_TOO_SMALL -> S3Error.ENTITY_TOO_SMALL;
            case CONDITIONAL_CONFLICT -> S3Error.CONDITIONAL_REQUEST_CONFLICT;
            case DATA_CORRUPTED -> S3Error.INTERNAL_ERROR;
            case INSUFFICIENT_STORAGE -> S3Error.INSUFFICIENT_STORAGE;
        };
    }

    /**
     * Whether {@code e}, or an exception it was caused by, says the disk is full: the store
     * refused the write, or spooling the body ran out of space.
     */
    static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StoreException s && s.reason() == StoreException.Reason.INSUFFICIENT_STORAGE) {
                return true;
            }
            String message = t.getMessage();
            if (message != null && message.contains("No space left on device")) {
                return true;
            }
        }
        return false;
    }

    private static void sendError(HttpExchange http, S3Request r, int status, String code, String message,
                                  String requestId) throws IOException {
        sendError(http, r, status, code, message, null, java.util.Map.of(), requestId);
    }

    /**
     * {@code region}: S3's {@code <Region>} of an error about the signing region; null: none.
     * {@code details}: further elements, in order.
     */
    private static void sendError(HttpExchange http, S3Request r, int status, String code, String message,
                                  String region, java.util.Map<String, String> details, String requestId)
            throws IOException {
        if (http.isCommitted()) {
            throw new IOException("response already committed when " + code + " arose");
        }
        // Headers set for the failed answer stay only when they describe the error (304, 416).
        java.util.Map<String, String> kept = new java.util.HashMap<>();
        for (String h : KEPT_ON_ERROR) {
            String v = http.responseHeader(h);
            if (v != null && (status == 304 || (status == 416 && h.equals("Content-Range")))) {
                kept.put(h, v);
            }
        }
        for (String h : VERSION_HEADERS) {
            String v = http.responseHeader(h);
            if (v != null) {
                kept.put(h, v);
            }
        }
        http.reset();
        kept.forEach(http::setHeader);
        if (r != null) {
            CorsHandler.setHeaders(http, r.cors);
        }
        http.setHeader("x-amz-request-id", requestId);
        http.setHeader("x-amz-id-2", requestId);
        http.setStatus(status);
        if (status == 304 || http.method().equals("HEAD")) {
            return;
        }
        Xml x = Xml.plainDocument("Error").element("Code", code).element("Message", message);
        if (region != null) {
            x.element("Region", region);
        }
        details.forEach(x::element);
        if (r != null) {
            x.element("Resource", r.resource());
        }
        x.element("RequestId", requestId);
        byte[] body = x.toBytes();
        http.setHeader("Content-Type", "application/xml");
        http.send(body);
        if (r != null) {
            r.bytesOut += body.length;
        }
    }

    private static final List<String> KEPT_ON_ERROR = List.of("ETag", "Last-Modified", "Cache-Control", "Content-Range");
    /** Set only when they describe the answer, errors included (a delete marker's 404 and 405). */
    private static final List<String> VERSION_HEADERS = List.of("x-amz-delete-marker", "x-amz-version-id", "Allow");
}
