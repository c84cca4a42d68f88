package dev.cairn.service.s3;

import dev.cairn.store.BucketAcl;
import java.util.List;
import java.util.Locale;

/**
 * The ACL a request asks for in its headers: {@code x-amz-acl} (a canned ACL) or
 * {@code x-amz-grant-*} (explicit grants). Cairn has one owner and two ACLs, private and
 * public-read, so the requests it understands are those that come down to one of them: the owner's
 * own grants ({@code id="<owner id>"}), and READ for AllUsers. A grant to anyone else answers
 * NotImplemented. Stateless.
 */
final class CannedAcls {
    static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
    private static final List<String> GRANT_HEADERS = List.of("x-amz-grant-read", "x-amz-grant-write",
            "x-amz-grant-read-acp", "x-amz-grant-write-acp", "x-amz-grant-full-control");

    private CannedAcls() {
    }

    /**
     * The ACL the headers ask for, or {@code absent} when they name none.
     *
     * @param forObject whether the ACL is an object's (it also takes the bucket-owner-* names)
     */
    static BucketAcl of(S3Request r, String ownerId, boolean forObject, BucketAcl absent) throws S3Exception {
        String canned = r.header("x-amz-acl");
        boolean grants = false;
        for (String h : GRANT_HEADERS) {
            grants |= r.header(h) != null;
        }
        if (canned != null && grants) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Specifying both Canned ACLs and Header Grants is not allowed");
        }
        if (canned != null) {
            return ofCannedName(canned.trim(), forObject);
        }
        return grants ? ofGrants(r, ownerId) : absent;
    }

    static BucketAcl ofCannedName(String name, boolean forObject) throws S3Exception {
        BucketAcl acl = BucketAcl.ofCannedName(name);
        if (acl != null) {
            return acl;
        }
        if (forObject && (name.equals("bucket-owner-full-control") || name.equals("bucket-owner-read"))) {
            // The bucket's owner is the object's: these grant nothing beyond private.
            return BucketAcl.PRIVATE;
        }
        if (List.of("public-read-write", "authenticated-read", "aws-exec-read", "log-delivery-write",
                "bucket-owner-full-control", "bucket-owner-read").contains(name)) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "the canned ACL " + name
                    + " is not supported; only private and public-read are");
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid canned ACL " + name);
    }

    private static BucketAcl ofGrants(S3Request r, String ownerId) throws S3Exception {
        boolean publicRead = false;
        for (String h : GRANT_HEADERS) {
            String value = r.header(h);
            if (value == null) {
                continue;
            }
            for (String grantee : value.split(",")) {
                String g = grantee.trim();
                int eq = g.indexOf('=');
                if (eq <= 0) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid grantee in " + h);
                }
                String type = g.substring(0, eq).trim().toLowerCase(Locale.ROOT);
                String who = unquote(g.substring(eq + 1).trim());
                if (type.equals("id") && who.equals(ownerId)) {
                    continue;
                }
                if (type.equals("uri") && who.equals(ALL_USERS) && h.equals("x-amz-grant-read")) {
                    publicRead = true;
                    continue;
                }
                if (!type.equals("id") && !type.equals("uri") && !type.equals("emailaddress")) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid grantee type " + type + " in " + h);
                }
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, "grants to anyone but the owner, and other than READ"
                        + " for AllUsers, are not supported (" + h + ")");
            }
        }
        return publicRead ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE;
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
