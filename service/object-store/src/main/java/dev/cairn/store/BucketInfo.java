package dev.cairn.store;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A bucket: its name, creation time (epoch millis), access policy, versioning state, and its
 * configuration documents by kind ({@link BucketDocument}: CORS rules, …; none for most buckets).
 */
public record BucketInfo(String name, long createdMillis, BucketAcl acl, Versioning versioning,
                         Map<String, String> documents) {

    public BucketInfo {
        versioning = versioning == null ? Versioning.UNVERSIONED : versioning;
        documents = documents == null || documents.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new TreeMap<>(documents));
    }

    /** A bucket without configuration documents. */
    public BucketInfo(String name, long createdMillis, BucketAcl acl, Versioning versioning) {
        this(name, createdMillis, acl, versioning, Map.of());
    }

    /** A bucket whose versioning was never configured. */
    public BucketInfo(String name, long createdMillis, BucketAcl acl) {
        this(name, createdMillis, acl, Versioning.UNVERSIONED);
    }

    /** The bucket's document of this kind, or null when it has none. */
    public String document(String kind) {
        return documents.get(kind);
    }

    /** This bucket with the document of {@code document}'s kind set to its text, or removed when the text is null. */
    public BucketInfo with(BucketDocument document) {
        Map<String, String> changed = new TreeMap<>(documents);
        if (document.text() == null) {
            changed.remove(document.kind());
        } else {
            changed.put(document.kind(), document.text());
        }
        return new BucketInfo(name, createdMillis, acl, versioning, changed);
    }

    /** This bucket with another ACL. */
    public BucketInfo withAcl(BucketAcl newAcl) {
        return new BucketInfo(name, createdMillis, newAcl, versioning, documents);
    }

    /** This bucket with another versioning state. */
    public BucketInfo withVersioning(Versioning newVersioning) {
        return new BucketInfo(name, createdMillis, acl, newVersioning, documents);
    }
}
