package dev.cairn.service.console;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionPage;
import dev.cairn.store.Versioning;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Browsing a bucket by prefix (folders from the delimiter {@code /}, pages from the listing):
 * images as a grid of thumbnails, other objects as a list, an upload area when the key may
 * write; an object's details page with its links; deleting an object.
 */
@Controller
@ConsoleOn
class BrowseController {
    static final int DEFAULT_PAGE = 200;
    static final int MAX_PAGE = 1000;

    private final ObjectStore store;
    private final ConsoleAccess access;
    private final VersionsController versionsTable;

    BrowseController(ObjectStore store, ConsoleAccess access, VersionsController versionsTable) {
        this.store = store;
        this.access = access;
        this.versionsTable = versionsTable;
    }

    @GetMapping("/console/b/{bucket}")
    ResponseEntity<String> browse(@PathVariable("bucket") String bucket, @RequestParam(name = "prefix", defaultValue = "") String prefix,
                                  @RequestParam(name = "after", required = false) String after,
                                  @RequestParam(name = "max", defaultValue = "" + DEFAULT_PAGE) int max,
                                  @RequestParam(name = "done", required = false) String done,
                                  HttpServletRequest request) throws IOException {
        ConsoleSession s = ConsoleGuard.session(request);
        Pages.require(access, s, bucket, ConsoleAccess.Action.LIST);
        BucketInfo info = store.bucket(bucket);
        if (info == null) {
            throw Pages.notFound("no bucket " + bucket);
        }
        ListPage page = store.listObjects(bucket, new ListQuery(prefix, "/", after, Math.max(1, Math.min(MAX_PAGE, max))));
        String key = s.accessKey();
        boolean mayRead = access.may(key, bucket, ConsoleAccess.Action.READ);
        Html h = new Html().begin(bucket, s, access.may(key, null, ConsoleAccess.Action.ADMIN)).notice(done, false);
        breadcrumbs(h, bucket, prefix);
        if (access.may(key, bucket, ConsoleAccess.Action.WRITE)) {
            h.raw("<section class=\"upload\" aria-labelledby=\"uploadTitle\"><h2 id=\"uploadTitle\">Upload</h2>")
                    .raw("<div id=\"dropzone\" class=\"dropzone\" data-bucket=\"").text(bucket).raw("\" data-prefix=\"").text(prefix)
                    .raw("\"><label for=\"files\">Choose files or drop them here</label>")
                    .raw("<input id=\"files\" type=\"file\" multiple></div>")
                    .raw("<ul id=\"uploads\" class=\"uploads\" aria-live=\"polite\"></ul></section>");
        }
        List<ObjectInfo> images = new ArrayList<>();
        List<ObjectInfo> others = new ArrayList<>();
        for (ObjectInfo o : page.objects()) {
            (mayRead && isImage(o) ? images : others).add(o);
        }
        if (!page.commonPrefixes().isEmpty()) {
            h.raw("<h2>Folders</h2><ul class=\"folders\">");
            for (String p : page.commonPrefixes()) {
                h.raw("<li><a href=\"/console/b/").text(bucket).raw("?prefix=").text(Html.q(p)).raw("\">")
                        .text(p.substring(prefix.length())).raw("</a></li>");
            }
            h.raw("</ul>");
        }
        if (!images.isEmpty()) {
            h.raw("<h2>Images</h2><ul class=\"grid\">");
            for (ObjectInfo o : images) {
                String name = o.key().substring(prefix.length());
                h.raw("<li><a href=\"").text(objectUrl(bucket, o.key())).raw("\"><img src=\"/console/b/").text(bucket)
                        .raw("/thumb?key=").text(Html.q(o.key())).raw("&amp;size=256&amp;v=").raw(o.sha256().substring(0, 16))
                        .raw("\" alt=\"\" width=\"160\" height=\"160\" loading=\"lazy\">")
                        .raw("<span>").text(name).raw("</span></a></li>");
            }
            h.raw("</ul>");
        }
        if (!others.isEmpty()) {
            h.raw("<h2>Files</h2><table class=\"files\"><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Size</th>")
                    .raw("<th scope=\"col\">Modified</th></tr></thead><tbody>");
            for (ObjectInfo o : others) {
                h.raw("<tr><td>");
                if (mayRead) {
                    h.raw("<a href=\"").text(objectUrl(bucket, o.key())).raw("\">").text(o.key().substring(prefix.length())).raw("</a>");
                } else {
                    h.text(o.key().substring(prefix.length()));
                }
                h.raw("</td><td>").raw(Html.bytes(o.size())).raw("</td><td>")
                        .raw(Instant.ofEpochMilli(o.lastModified()).toString()).raw("</td></tr>");
            }
            h.raw("</tbody></table>");
        }
        if (page.objects().isEmpty() && page.commonPrefixes().isEmpty()) {
            h.raw("<p>Nothing here yet.</p>");
        }
        h.raw("<nav class=\"pager\" aria-label=\"Pages\">");
        if (after != null) {
            h.raw("<a href=\"/console/b/").text(bucket).raw("?prefix=").text(Html.q(prefix)).raw("\">First page</a> ");
        }
        if (page.truncated() && page.lastReturned() != null) {
            h.raw("<a rel=\"next\" href=\"/console/b/").text(bucket).raw("?prefix=").text(Html.q(prefix)).raw("&amp;after=")
                    .text(Html.q(page.lastReturned())).raw("\">Next page</a>");
        }
        h.raw("</nav>");
        if (info.versioning() != Versioning.UNVERSIONED && mayRead) {
            h.raw("<p><a id=\"deletedLink\" href=\"/console/b/").text(bucket).raw("/deleted?prefix=").text(Html.q(prefix))
                    .raw("\">Deleted objects under this folder</a> (their older versions can be made current again)</p>");
        }
        return Pages.html(200, h.end());
    }

    @GetMapping("/console/b/{bucket}/object")
    ResponseEntity<String> details(@PathVariable("bucket") String bucket, @RequestParam("key") String key,
                                   @RequestParam(name = "done", required = false) String done, HttpServletRequest request)
            throws IOException {
        ConsoleSession s = ConsoleGuard.session(request);
        Pages.require(access, s, bucket, ConsoleAccess.Action.READ);
        BucketInfo b = store.bucket(bucket);
        if (b == null) {
            throw Pages.notFound("no bucket " + bucket);
        }
        boolean versioned = b.versioning() != Versioning.UNVERSIONED;
        ObjectInfo o = store.headObject(bucket, key);
        VersionPage versions = versioned ? versionsTable.versions(bucket, key) : null;
        if (o == null && (versions == null || versions.versions().isEmpty() || !versions.versions().get(0).key().equals(key))) {
            throw Pages.notFound("no object " + key + " in " + bucket);
        }
        String ak = s.accessKey();
        Html h = new Html().begin(key, s, access.may(ak, null, ConsoleAccess.Action.ADMIN)).notice(done, false);
        String folder = key.contains("/") ? key.substring(0, key.lastIndexOf('/') + 1) : "";
        breadcrumbs(h, bucket, folder);
        if (o == null) {
            h.raw("<p class=\"notice\" id=\"deleted\">The current version of this key is a delete marker: it reads as deleted.")
                    .raw(" Make an older version current, or delete the marker, to bring it back.</p>");
            versionsTable.table(h, s, bucket, key, versions);
            return Pages.html(200, h.end());
        }
        if (isImage(o)) {
            h.raw("<p class=\"preview\"><a href=\"/console/b/").text(bucket).raw("/raw?key=").text(Html.q(key))
                    .raw("\"><img src=\"/console/b/").text(bucket).raw("/thumb?key=").text(Html.q(key))
                    .raw("&amp;size=512&amp;v=").raw(o.sha256().substring(0, 16)).raw("\" alt=\"Preview of ").text(key)
                    .raw("\"></a></p>");
        }
        h.raw("<table class=\"details\"><caption>Object details</caption><tbody>");
        row(h, "Key", key);
        row(h, "Size", Html.bytes(o.size()) + " (" + o.size() + " bytes)");
        row(h, "SHA-256", o.sha256());
        row(h, "ETag", "\"" + o.etag() + "\"");
        row(h, "Content type", o.attributes().contentType());
        row(h, "Last modified", Instant.ofEpochMilli(o.lastModified()).toString());
        if (o.partCount() > 0) {
            row(h, "Parts", Integer.toString(o.partCount()));
        }
        for (Map.Entry<String, String> m : o.attributes().userMetadata().entrySet()) {
            row(h, "x-amz-meta-" + m.getKey(), m.getValue());
        }
        for (Map.Entry<String, String> c : o.checksums().entrySet()) {
            row(h, "Checksum " + c.getKey(), c.getValue());
        }
        if (versioned) {
            row(h, "Version id", o.versionId() == null ? VersionId.NULL : o.versionId());
        }
        h.raw("</tbody></table>");
        if (versioned) {
            versionsTable.table(h, s, bucket, key, versions);
        }
        h.raw("<section class=\"links\" aria-labelledby=\"linksTitle\" data-bucket=\"").text(bucket).raw("\" data-key=\"")
                .text(key).raw("\"><h2 id=\"linksTitle\">Share</h2>")
                .raw("<label for=\"expiry\">Signed link expires after</label><select id=\"expiry\">")
                .raw("<option value=\"3600\">1 hour</option><option value=\"86400\" selected>1 day</option>")
                .raw("<option value=\"604800\">7 days</option></select> ")
                .raw("<button type=\"button\" id=\"copyCas\" data-kind=\"cas\">Copy immutable link</button> ")
                .raw("<button type=\"button\" id=\"copySigned\" data-kind=\"object\">Copy presigned link</button>")
                .raw("<p class=\"help\">")
                .raw(b.acl() == BucketAcl.PUBLIC_READ
                        ? "The bucket is public: the immutable /_cas/ link needs no signature and never expires."
                        : "The bucket is private: both links are signed with your key and expire.")
                .raw("</p><label for=\"link\">Link</label><input id=\"link\" readonly>")
                .raw("<p id=\"linkStatus\" role=\"status\"></p></section>");
        h.raw("<p><a href=\"/console/b/").text(bucket).raw("/raw?key=").text(Html.q(key)).raw("\">Download</a></p>");
        if (access.may(ak, bucket, ConsoleAccess.Action.DELETE)) {
            h.raw("<form method=\"post\" action=\"/console/b/").text(bucket).raw("/object/delete\" data-confirm=\"Delete ")
                    .text(key).raw("?\">").raw(Html.csrfField(s)).raw("<input type=\"hidden\" name=\"key\" value=\"").text(key)
                    .raw("\"><button type=\"submit\" class=\"danger\">Delete object</button></form>");
        }
        return Pages.html(200, h.end());
    }

    @PostMapping("/console/b/{bucket}/object/delete")
    ResponseEntity<Void> delete(@PathVariable("bucket") String bucket, @RequestParam("key") String key, HttpServletRequest request)
            throws IOException {
        Pages.require(access, ConsoleGuard.session(request), bucket, ConsoleAccess.Action.DELETE);
        BucketInfo b = store.bucket(bucket);
        boolean gone;
        if (b != null && b.versioning() != Versioning.UNVERSIONED) {
            // The versions stay: the object's page shows them, with the delete marker on top.
            ObjectVersion marker = store.deleteObjectVersion(bucket, key, null);
            if (marker != null && marker.deleteMarker()) {
                return Pages.redirect(objectUrl(bucket, key) + "&done="
                        + Html.q("Deleted " + key + ": a delete marker is its current version, its older versions stay"));
            }
            gone = marker != null;
        } else {
            gone = store.deleteObject(bucket, key) != null;
        }
        String folder = key.contains("/") ? key.substring(0, key.lastIndexOf('/') + 1) : "";
        return Pages.redirect("/console/b/" + bucket + "?prefix=" + Html.q(folder) + "&done="
                + Html.q(gone ? "Deleted " + key : key + " was gone already"));
    }

    static boolean isImage(ObjectInfo o) {
        String type = o.attributes().contentType();
        if (type != null && (type.equals("image/jpeg") || type.equals("image/png") || type.equals("image/gif")
                || type.equals("image/webp"))) {
            return true;
        }
        String k = o.key().toLowerCase(Locale.ROOT);
        return k.endsWith(".jpg") || k.endsWith(".jpeg") || k.endsWith(".png") || k.endsWith(".gif") || k.endsWith(".webp");
    }

    static String objectUrl(String bucket, String key) {
        return "/console/b/" + bucket + "/object?key=" + Html.q(key);
    }

    private static void row(Html h, String name, String value) {
        h.raw("<tr><th scope=\"row\">").text(name).raw("</th><td>").text(value == null ? "—" : value).raw("</td></tr>");
    }

    private static void breadcrumbs(Html h, String bucket, String prefix) {
        h.raw("<nav class=\"crumbs\" aria-label=\"Folder\"><ol><li><a href=\"/console/b/").text(bucket).raw("\">").text(bucket)
                .raw("</a></li>");
        int from = 0;
        int slash;
        while ((slash = prefix.indexOf('/', from)) >= 0) {
            String p = prefix.substring(0, slash + 1);
            h.raw("<li><a href=\"/console/b/").text(bucket).raw("?prefix=").text(Html.q(p)).raw("\">")
                    .text(prefix.substring(from, slash)).raw("</a></li>");
            from = slash + 1;
        }
        h.raw("</ol></nav>");
    }
}
