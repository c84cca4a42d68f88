package dev.cairn.service.console;

import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoredCopy;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The versions of a key on its details page, and what the console does to one of them: download
 * it ({@code READ}, served by {@link ContentController}), make it current again ({@code READ} and
 * {@code WRITE}: a copy of it becomes the newest version, as a CopyObject naming the version does)
 * or delete it for good ({@code DELETE}: that version only; deleting a delete marker brings the
 * key back). The table offers only what the key may do; the handlers check again.
 */
@Controller
@ConsoleOn
class VersionsController {
    /** Versions shown on a details page, newest first. */
    static final int SHOWN = 50;
    /** Keys listed on a page of deleted objects, and versions scanned for them at most. */
    static final int DELETED_SHOWN = 200;
    static final int DELETED_SCAN = 10_000;
    /** Reads of the version to restore, when its content is reclaimed under the copy (the version deleted meanwhile). */
    private static final int COPY_ATTEMPTS = 4;

    private final ObjectStore store;
    private final ConsoleAccess access;

    private final int deletedScan;
    private final int listingPage;

    @Autowired
    VersionsController(ObjectStore store, ConsoleAccess access) {
        this(store, access, DELETED_SCAN, 1000);
    }

    /** With smaller bounds on the scan for deleted objects (tests). */
    VersionsController(ObjectStore store, ConsoleAccess access, int deletedScan, int listingPage) {
        this.store = store;
        this.access = access;
        this.deletedScan = deletedScan;
        this.listingPage = listingPage;
    }

    /** The key's versions, newest first; empty when it has none. */
    VersionPage versions(String bucket, String key) throws IOException {
        return store.listObjectVersions(bucket, new VersionQuery(key, null, null, null, SHOWN));
    }

    /** Writes the versions table of {@code key}, with the actions the session's key may take on each version. */
    void table(Html h, ConsoleSession s, String bucket, String key, VersionPage page) {
        String ak = s.accessKey();
        boolean mayRead = access.may(ak, bucket, ConsoleAccess.Action.READ);
        boolean mayRestore = mayRead && access.may(ak, bucket, ConsoleAccess.Action.WRITE);
        boolean mayDelete = access.may(ak, bucket, ConsoleAccess.Action.DELETE);
        h.raw("<table class=\"versions\" id=\"versions\"><caption>Versions, newest first</caption><thead><tr>")
                .raw("<th scope=\"col\">Version id</th><th scope=\"col\">Last modified</th><th scope=\"col\">Size</th>")
                .raw("<th scope=\"col\">ETag</th><th scope=\"col\">Actions</th></tr></thead><tbody>");
        int shown = 0;
        for (ObjectVersion v : page.versions()) {
            if (!v.key().equals(key)) {
                break;
            }
            shown++;
            String id = v.versionId();
            h.raw("<tr data-version=\"").text(id).raw("\"").raw(v.latest() ? " data-current=\"true\"" : "").raw("><th scope=\"row\">")
                    .text(id + (v.latest() ? " (current)" : "")).raw("</th><td>")
                    .text(Instant.ofEpochMilli(v.lastModified()).toString()).raw("</td><td>")
                    .text(v.deleteMarker() ? "delete marker" : Html.bytes(v.info().size())).raw("</td><td>")
                    .text(v.deleteMarker() ? "" : "\"" + v.info().etag() + "\"").raw("</td><td class=\"actions\">");
            if (mayRead && !v.deleteMarker()) {
                h.raw("<a class=\"download\" download href=\"/console/b/").text(bucket).raw("/raw?key=").text(Html.q(key))
                        .raw("&amp;versionId=").text(Html.q(id)).raw("\" aria-label=\"Download, version ").text(id)
                        .raw("\">Download</a> ");
            }
            if (mayRestore && !v.latest() && !v.deleteMarker()) {
                form(h, s, bucket, key, id, "restore", "Make version " + id + " of " + key
                        + " current again? A copy of it becomes the newest version; the others stay.");
                h.raw("<button type=\"submit\" class=\"restore\" aria-label=\"Make current, version ").text(id)
                        .raw("\">Make current</button></form> ");
            }
            if (mayDelete) {
                form(h, s, bucket, key, id, "delete", "Delete " + (v.deleteMarker() ? "the delete marker " : "version ") + id
                        + " of " + key + " permanently? This cannot be undone.");
                h.raw("<button type=\"submit\" class=\"danger\" aria-label=\"Delete for good, version ").text(id)
                        .raw("\">Delete for good</button></form>");
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
        if (shown == SHOWN && page.truncated()) {
            h.raw("<p class=\"help\">The newest ").raw(Integer.toString(SHOWN))
                    .raw(" versions are shown; older ones are listed by S3's ListObjectVersions.</p>");
        }
    }

    private static void form(Html h, ConsoleSession s, String bucket, String key, String versionId, String action,
                             String confirm) {
        h.raw("<form class=\"version-action\" method=\"post\" action=\"/console/b/").text(bucket).raw("/object/version/")
                .raw(action).raw("\" data-confirm=\"").text(confirm).raw("\">").raw(Html.csrfField(s))
                .raw("<input type=\"hidden\" name=\"key\" value=\"").text(key).raw("\">")
                .raw("<input type=\"hidden\" name=\"versionId\" value=\"").text(versionId).raw("\">");
    }

    /**
     * The keys under {@code prefix} whose current version is a delete marker, each linking to its
     * details page (where an older version can be made current again). Scans at most
     * {@link #DELETED_SCAN} versions a page, so a page stays cheap however many versions the
     * folder holds; "Next page" goes on from where the scan stopped.
     */
    @GetMapping("/console/b/{bucket}/deleted")
    ResponseEntity<String> deleted(@PathVariable("bucket") String bucket, @RequestParam(name = "prefix", defaultValue = "") String prefix,
                                   @RequestParam(name = "after", required = false) String after, HttpServletRequest request)
            throws IOException {
        ConsoleSession s = ConsoleGuard.session(request);
        Pages.require(access, s, bucket, ConsoleAccess.Action.READ);
        if (store.bucket(bucket) == null) {
            throw Pages.notFound("no bucket " + bucket);
        }
        List<ObjectVersion> markers = new ArrayList<>();
        String keyMarker = after;
        String versionMarker = null;
        int scanned = 0;
        boolean more = true;
        while (more && scanned < deletedScan && markers.size() < DELETED_SHOWN) {
            VersionPage page = store.listObjectVersions(bucket, new VersionQuery(prefix, null, keyMarker, versionMarker, listingPage));
            for (ObjectVersion v : page.versions()) {
                if (v.latest() && v.deleteMarker()) {
                    markers.add(v);
                }
            }
            scanned += page.versions().size();
            more = page.truncated() && page.nextKeyMarker() != null;
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
        }
        Html h = new Html().begin("Deleted objects in " + bucket, s, access.may(s.accessKey(), null, ConsoleAccess.Action.ADMIN));
        h.raw("<p><a href=\"/console/b/").text(bucket).raw("?prefix=").text(Html.q(prefix)).raw("\">Back to ").text(bucket)
                .raw("/").text(prefix).raw("</a></p>");
        if (markers.isEmpty()) {
            h.raw("<p>No deleted object here").raw(more ? " in this part of the listing" : "").raw(".</p>");
        } else {
            h.raw("<table class=\"files\" id=\"deletedObjects\"><caption>Keys under ").text(prefix.isEmpty() ? "the bucket" : prefix)
                    .raw(" whose current version is a delete marker</caption><thead><tr><th scope=\"col\">Key</th>")
                    .raw("<th scope=\"col\">Deleted</th></tr></thead><tbody>");
            for (ObjectVersion v : markers) {
                h.raw("<tr><td><a href=\"").text(BrowseController.objectUrl(bucket, v.key())).raw("\">").text(v.key())
                        .raw("</a></td><td>").text(Instant.ofEpochMilli(v.lastModified()).toString()).raw("</td></tr>");
            }
            h.raw("</tbody></table>");
        }
        if (more) {
            // On after the whole key: a key's versions are listed newest first, so its current one was seen.
            h.raw("<nav class=\"pager\" aria-label=\"Pages\"><a rel=\"next\" href=\"/console/b/").text(bucket)
                    .raw("/deleted?prefix=").text(Html.q(prefix)).raw("&amp;after=").text(Html.q(keyMarker))
                    .raw("\">Next page</a></nav>");
        }
        return Pages.html(200, h.end());
    }

    @PostMapping("/console/b/{bucket}/object/version/restore")
    ResponseEntity<Void> restore(@PathVariable("bucket") String bucket, @RequestParam("key") String key,
                                 @RequestParam("versionId") String versionId, HttpServletRequest request) throws IOException {
        ConsoleSession s = ConsoleGuard.session(request);
        Pages.require(access, s, bucket, ConsoleAccess.Action.READ);
        Pages.require(access, s, bucket, ConsoleAccess.Action.WRITE);
        requireWellFormed(versionId);
        for (int attempt = 1; ; attempt++) {
            ObjectVersion v = store.objectVersion(bucket, key, versionId);
            if (v == null) {
                throw Pages.notFound("no version " + versionId + " of " + key + " in " + bucket);
            }
            if (v.deleteMarker()) {
                throw Pages.badRequest("version " + versionId + " is a delete marker: delete it to bring the key back");
            }
            if (v.latest()) {
                return details(bucket, key, "Version " + versionId + " is the current version already");
            }
            try {
                ObjectInfo made = copy(bucket, key, v.info());
                return details(bucket, key, "Version " + versionId + " is current again, as version "
                        + (made.versionId() == null ? VersionId.NULL : made.versionId()));
            } catch (StoreException e) {
                if (e.reason() != StoreException.Reason.CONTENT_GONE || attempt == COPY_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /**
     * Writes {@code src} as the key's newest version, as CopyObject does: its attributes (its own
     * ACL included) and full-object checksums, the MD5 of its bytes as ETag (one part), and its
     * content by digest, so no byte is copied.
     */
    private ObjectInfo copy(String bucket, String key, ObjectInfo src) throws IOException {
        ContentSource content = StoredCopy.content(store, src);
        return store.putObject(PutRequest.of(bucket, key, content, ContentSource.md5Of(content))
                .withAttributes(src.attributes()).withChecksums(StoredCopy.fullObjectChecksums(src)));
    }

    @PostMapping("/console/b/{bucket}/object/version/delete")
    ResponseEntity<Void> delete(@PathVariable("bucket") String bucket, @RequestParam("key") String key,
                                @RequestParam("versionId") String versionId, HttpServletRequest request) throws IOException {
        Pages.require(access, ConsoleGuard.session(request), bucket, ConsoleAccess.Action.DELETE);
        requireWellFormed(versionId);
        ObjectVersion gone = store.deleteObjectVersion(bucket, key, versionId);
        String done = gone == null ? "Version " + versionId + " of " + key + " was gone already"
                : gone.deleteMarker() ? "Deleted the delete marker " + versionId + " of " + key
                : "Deleted version " + versionId + " of " + key + " permanently";
        if (!hasVersions(bucket, key)) {
            String folder = key.contains("/") ? key.substring(0, key.lastIndexOf('/') + 1) : "";
            return Pages.redirect("/console/b/" + bucket + "?prefix=" + Html.q(folder) + "&done=" + Html.q(done));
        }
        return details(bucket, key, done);
    }

    private boolean hasVersions(String bucket, String key) throws IOException {
        for (ObjectVersion v : store.listObjectVersions(bucket, new VersionQuery(key, null, null, null, 1)).versions()) {
            if (v.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    static void requireWellFormed(String versionId) {
        if (!VersionId.isWellFormed(versionId)) {
            throw Pages.badRequest("not a version id: " + versionId);
        }
    }

    private static ResponseEntity<Void> details(String bucket, String key, String done) {
        return Pages.redirect(BrowseController.objectUrl(bucket, key) + "&done=" + Html.q(done));
    }
}
