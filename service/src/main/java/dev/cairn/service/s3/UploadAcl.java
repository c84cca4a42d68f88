package dev.cairn.service.s3;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectAttributes;
import java.util.Map;
import java.util.TreeMap;

/**
 * The canned ACL a multipart upload was created with. The stores' upload rows keep headers and
 * user metadata only, so a public-read upload keeps its ACL in its attributes under the name
 * {@value #ATTRIBUTE} (no header can carry a colon in its name), as {@link UploadChecksum} does;
 * completion removes it and gives the object that ACL. A private upload carries nothing. Stateless.
 */
final class UploadAcl {
    static final String ATTRIBUTE = "cairn:acl";

    private UploadAcl() {
    }

    static ObjectAttributes stamp(ObjectAttributes a, BucketAcl acl) {
        if (acl == BucketAcl.PRIVATE) {
            return a.withAcl(BucketAcl.PRIVATE);
        }
        Map<String, String> meta = new TreeMap<>(a.userMetadata());
        meta.put(ATTRIBUTE, acl.cannedName());
        return a.withUserMetadata(meta).withAcl(BucketAcl.PRIVATE);
    }

    static boolean isStamped(ObjectAttributes uploadAttributes) {
        return uploadAttributes.userMetadata().containsKey(ATTRIBUTE);
    }

    /** The upload's attributes as the completed object keeps them, with the upload's ACL. */
    static ObjectAttributes strip(ObjectAttributes a) {
        String name = a.userMetadata().get(ATTRIBUTE);
        if (name == null) {
            return a;
        }
        Map<String, String> meta = new TreeMap<>(a.userMetadata());
        meta.remove(ATTRIBUTE);
        BucketAcl acl = BucketAcl.ofCannedName(name);
        return a.withUserMetadata(meta).withAcl(acl == null ? BucketAcl.PRIVATE : acl);
    }
}
