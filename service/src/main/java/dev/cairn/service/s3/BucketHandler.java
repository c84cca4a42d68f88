package dev.cairn.service.s3;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.StoreException;
import java.io.IOException;
import org.w3c.dom.Element;

/**
 * Bucket operations: ListBuckets, CreateBucket, HeadBucket, DeleteBucket, GetBucketLocation,
 * GetBucketVersioning, GetBucketAcl, PutBucketAcl, GetObjectAcl and PutObjectAcl. Thread-safe.
 */
final class BucketHandler {
    private static final String ALL_USERS = CannedAcls.ALL_USERS;

    static final int MAX_BUCKETS = 10_000;
    static final String US_EAST_1 = "us-east-1";

    private final S3Context ctx;

    BucketHandler(S3Context ctx) {
        this.ctx = ctx;
    }

    /**
     * ListBuckets: all buckets by name, or with {@code max-buckets} one page of them, the next
     * page named by {@code ContinuationToken}; {@code prefix} filters by name.
     */
    void listBuckets(S3Request r, java.util.function.Predicate<String> visible) throws IOException, S3Exception {
        String prefix = r.param("prefix");
        String token = r.param("continuation-token");
        String after = token == null || token.isEmpty() ? null : ListingHandler.decodeToken(token);
        int max = r.hasParam("max-buckets") ? r.intParam("max-buckets", MAX_BUCKETS, 1, MAX_BUCKETS) : Integer.MAX_VALUE;
        String region = r.param("bucket-region");
        Xml x = Xml.document("ListAllMyBucketsResult");
        owner(x, "Owner");
        x.start("Buckets");
        String last = null;
        int shown = 0;
        boolean truncated = false;
        if (region == null || region.equals(ctx.properties().getRegion())) {
            for (BucketInfo b : ctx.store().listBuckets()) {
                if (prefix != null && !b.name().startsWith(prefix) || after != null && b.name().compareTo(after) <= 0
                        || !visible.test(b.name())) {
                    continue;
                }
                if (shown == max) {
                    truncated = true;
                    break;
                }
                x.start("Bucket").element("Name", b.name()).element("CreationDate", HttpDates.iso(b.createdMillis()))
                        .element("BucketRegion", ctx.properties().getRegion()).end();
                last = b.name();
                shown++;
            }
        }
        x.end();
        if (truncated) {
            x.element("ContinuationToken", ListingHandler.encodeToken(last));
        }
        if (prefix != null) {
            x.element("Prefix", prefix);
        }
        r.sendXml(200, x);
    }

    void createBucket(S3Request r) throws IOException, S3Exception {
        if (!BucketNames.isValid(r.bucket())) {
            throw new S3Exception(S3Error.INVALID_BUCKET_NAME);
        }
        UnsupportedHeaders.checkCreateBucket(r);
        BucketAcl acl = CannedAcls.of(r, ctx.ownerId(), false, BucketAcl.PRIVATE);
        if (r.http.contentLength() > 0 || r.auth.decodedContentLength() > 0) {
            byte[] body = Bodies.readXml(ctx, r);
            if (body.length > 0) {
                Element root = Xml.parse(body);
                String location = Xml.childText(root, "LocationConstraint");
                if (!Xml.localNameOf(root).equals("CreateBucketConfiguration")) {
                    throw new S3Exception(S3Error.MALFORMED_XML);
                }
                if (location != null && !location.isEmpty() && !location.equals(ctx.properties().getRegion())) {
                    throw new S3Exception(S3Error.ILLEGAL_LOCATION_CONSTRAINT);
                }
            }
        }
        try {
            ctx.store().createBucket(r.bucket(), acl);
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.BUCKET_EXISTS) {
                // Every bucket here is the one owner's. In us-east-1 S3 answers 200 and resets the
                // bucket's ACL to the request's (legacy behaviour); in every other region 409.
                if (!US_EAST_1.equals(ctx.properties().getRegion())) {
                    throw new S3Exception(S3Error.BUCKET_ALREADY_OWNED_BY_YOU);
                }
                ctx.store().setBucketAcl(r.bucket(), acl);
            } else {
                throw e;
            }
        }
        r.setHeader("Location", "/" + r.bucket());
        r.sendEmpty(200);
    }

    void headBucket(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        r.setHeader("x-amz-bucket-region", ctx.properties().getRegion());
        r.sendEmpty(200);
    }

    void deleteBucket(S3Request r) throws IOException {
        ctx.store().deleteBucket(r.bucket());
        r.sendEmpty(204);
    }

    void getLocation(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        String region = ctx.properties().getRegion();
        Xml x = Xml.document("LocationConstraint");
        if (!region.equals(US_EAST_1)) {
            x.raw(escapeText(region));
        }
        r.sendXml(200, x);
    }

    /** A bucket whose versioning was never set answers an empty configuration, as S3. */
    void getVersioning(S3Request r) throws IOException, S3Exception {
        BucketInfo b = requireBucket(r);
        Xml x = Xml.document("VersioningConfiguration");
        if (b.versioning().status() != null) {
            x.element("Status", b.versioning().status());
        }
        r.sendXml(200, x);
    }

    void putVersioning(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        Element root = Xml.parse(Bodies.readXml(ctx, r));
        if (!Xml.localNameOf(root).equals("VersioningConfiguration")) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        String mfa = Xml.childText(root, "MfaDelete");
        if (mfa != null && mfa.trim().equals("Enabled")) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "MFA delete is not supported");
        }
        if (mfa != null && !mfa.trim().equals("Disabled")) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        String status = Xml.childText(root, "Status");
        dev.cairn.store.Versioning v = dev.cairn.store.Versioning.ofStatus(status == null ? null : status.trim());
        if (v == null) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        try {
            ctx.store().setBucketVersioning(r.bucket(), v);
        } catch (UnsupportedOperationException e) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "bucket versioning is not supported by this store");
        }
        r.sendEmpty(200);
    }

    void getBucketAcl(S3Request r) throws IOException, S3Exception {
        BucketInfo b = requireBucket(r);
        sendAcl(r, b.acl());
    }

    /** The object's own ACL; a public-read bucket makes a private object readable by anyone all the same. */
    void getObjectAcl(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        String versionId = ObjectReadHandler.versionIdParam(r);
        ObjectInfo o;
        if (versionId == null) {
            o = ctx.store().headObject(r.bucket(), r.key());
            if (o == null) {
                throw new S3Exception(S3Error.NO_SUCH_KEY);
            }
        } else {
            o = ObjectReadHandler.objectVersion(ctx, r, versionId);
            r.setHeader("x-amz-version-id", versionId);
        }
        sendAcl(r, o.acl());
    }

    /** With a {@code versionId}, the ACL of that version, current or not, as S3 does. */
    void putObjectAcl(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        String versionId = ObjectReadHandler.versionIdParam(r);
        if (versionId != null) {
            ObjectReadHandler.objectVersion(ctx, r, versionId);
        }
        BucketAcl acl = requestedAcl(r, true);
        try {
            if (versionId == null) {
                ctx.store().setObjectAcl(r.bucket(), r.key(), acl);
            } else if (setVersionAcl(r, versionId, acl) == null) {
                throw new S3Exception(S3Error.NO_SUCH_VERSION);
            }
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.CONTENT_GONE) {
                throw new S3Exception(S3Error.NO_SUCH_KEY);
            }
            throw e;
        }
        r.sendEmpty(200);
    }

    private ObjectInfo setVersionAcl(S3Request r, String versionId, BucketAcl acl) throws IOException, S3Exception {
        try {
            return ctx.store().setObjectVersionAcl(r.bucket(), r.key(), versionId, acl);
        } catch (UnsupportedOperationException e) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "the ACL of a version that is not current cannot be changed");
        }
    }

    void putBucketAcl(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        ctx.store().setBucketAcl(r.bucket(), requestedAcl(r, false));
        r.sendEmpty(200);
    }

    /** The ACL of the headers, or of the AccessControlPolicy body when they name none. */
    private BucketAcl requestedAcl(S3Request r, boolean forObject) throws IOException, S3Exception {
        BucketAcl acl = CannedAcls.of(r, ctx.ownerId(), forObject, null);
        if (acl == null) {
            byte[] body = Bodies.readXml(ctx, r);
            if (body.length == 0) {
                throw new S3Exception(S3Error.MALFORMED_XML);
            }
            acl = aclOfPolicy(Xml.parse(body));
        } else {
            // A body next to the headers is ignored, as S3 does; it is still read so a signed payload is checked.
            Bodies.readXml(ctx, r);
        }
        return acl;
    }

    private BucketAcl aclOfPolicy(Element root) throws S3Exception {
        if (!Xml.localNameOf(root).equals("AccessControlPolicy")) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        boolean publicRead = false;
        for (Element list : Xml.children(root, "AccessControlList")) {
            for (Element grant : Xml.children(list, "Grant")) {
                String permission = Xml.childText(grant, "Permission");
                var grantees = Xml.children(grant, "Grantee");
                if (grantees.isEmpty() || permission == null) {
                    throw new S3Exception(S3Error.MALFORMED_XML);
                }
                Element grantee = grantees.get(0);
                String uri = Xml.childText(grantee, "URI");
                String id = Xml.childText(grantee, "ID");
                if (ALL_USERS.equals(uri) && permission.equals("READ")) {
                    publicRead = true;
                } else if (!ctx.ownerId().equals(id)) {
                    throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                            "grants to anyone but the owner, and other than READ for AllUsers, are not supported");
                }
            }
        }
        return publicRead ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE;
    }

    private void sendAcl(S3Request r, BucketAcl acl) throws IOException {
        Xml x = Xml.document("AccessControlPolicy");
        owner(x, "Owner");
        x.start("AccessControlList");
        x.start("Grant").raw("<Grantee xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\"CanonicalUser\">")
                .element("ID", ctx.ownerId()).element("DisplayName", ctx.ownerName()).raw("</Grantee>")
                .element("Permission", "FULL_CONTROL").end();
        if (acl == BucketAcl.PUBLIC_READ) {
            x.start("Grant").raw("<Grantee xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\"Group\">")
                    .element("URI", ALL_USERS).raw("</Grantee>").element("Permission", "READ").end();
        }
        x.end();
        r.sendXml(200, x);
    }

    void owner(Xml x, String element) {
        x.start(element).element("ID", ctx.ownerId()).element("DisplayName", ctx.ownerName()).end();
    }

    private BucketInfo requireBucket(S3Request r) throws IOException {
        BucketInfo b = ctx.store().bucket(r.bucket());
        if (b == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, r.bucket());
        }
        return b;
    }

    private static String escapeText(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
