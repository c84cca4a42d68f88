package dev.cairn.service.console;

import dev.cairn.service.config.ConsoleProperties;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.StoreException;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.Versioning;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.regex.Pattern;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The buckets page: each bucket with its object count and size; create, delete (an empty one), public-read, versioning. */
@Controller
@ConsoleOn
class BucketsController {
    /**
     * Names the console creates: S3's rules without dots (a subset of what S3 accepts, so every
     * name made here is valid there too).
     */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");

    private final ObjectStore store;
    private final ConsoleAccess access;
    private final int countLimit;

    BucketsController(ObjectStore store, ConsoleAccess access, ConsoleProperties settings) {
        this.store = store;
        this.access = access;
        this.countLimit = settings.getBucketCountLimit();
    }

    @GetMapping("/console/buckets")
    ResponseEntity<String> list(@RequestParam(name = "done", required = false) String done, @RequestParam(name = "error", required = false) String error,
                                HttpServletRequest request) throws IOException {
        ConsoleSession s = ConsoleGuard.session(request);
        String key = s.accessKey();
        Html h = new Html().begin("Buckets", s, access.may(key, null, ConsoleAccess.Action.ADMIN))
                .notice(done, false).notice(error, true);
        if (access.may(key, null, ConsoleAccess.Action.ADMIN)) {
            h.raw("<form class=\"inline\" method=\"post\" action=\"/console/buckets\">").raw(Html.csrfField(s))
                    .raw("<label for=\"newBucket\">New bucket name</label>")
                    .raw("<input id=\"newBucket\" name=\"name\" required pattern=\"[a-z0-9][a-z0-9\\-]{1,61}[a-z0-9]\" ")
                    .raw("aria-describedby=\"newBucketHelp\"><button type=\"submit\">Create bucket</button>")
                    .raw("<span id=\"newBucketHelp\" class=\"help\">3–63 lower-case letters, digits and hyphens</span></form>");
        }
        h.raw("<table class=\"buckets\"><caption>Buckets this key may see</caption><thead><tr><th scope=\"col\">Bucket</th>")
                .raw("<th scope=\"col\">Objects</th><th scope=\"col\">Size</th><th scope=\"col\">Public read</th>")
                .raw("<th scope=\"col\">Versioning</th>")
                .raw("<th scope=\"col\">Actions</th></tr></thead><tbody>");
        for (BucketInfo b : store.listBuckets()) {
            if (!access.may(key, b.name(), ConsoleAccess.Action.LIST)) {
                continue;
            }
            long[] usage = usage(b.name());
            boolean admin = access.may(key, b.name(), ConsoleAccess.Action.ADMIN);
            boolean pub = b.acl() == BucketAcl.PUBLIC_READ;
            h.raw("<tr><th scope=\"row\"><a href=\"/console/b/").text(b.name()).raw("\">").text(b.name()).raw("</a></th>")
                    .raw("<td>").raw(usage[0] >= countLimit ? "≥ " + countLimit : Long.toString(usage[0])).raw("</td>")
                    .raw("<td>").raw(Html.bytes(usage[1])).raw(usage[0] >= countLimit ? "+" : "").raw("</td><td>");
            if (admin) {
                h.raw("<form method=\"post\" action=\"/console/buckets/").text(b.name()).raw("/public\">").raw(Html.csrfField(s))
                        .raw("<input type=\"hidden\" name=\"on\" value=\"").raw(pub ? "false" : "true").raw("\">")
                        .raw("<button type=\"submit\" aria-pressed=\"").raw(pub ? "true" : "false").raw("\" aria-label=\"Public read for ")
                        .text(b.name()).raw("\">").raw(pub ? "On" : "Off").raw("</button></form>");
            } else {
                h.raw(pub ? "On" : "Off");
            }
            h.raw("</td><td>");
            versioning(h, s, b, admin);
            h.raw("</td><td>");
            if (admin && isEmpty(b, usage[0])) {
                h.raw("<form method=\"post\" action=\"/console/buckets/").text(b.name()).raw("/delete\" data-confirm=\"Delete bucket ")
                        .text(b.name()).raw("?\">").raw(Html.csrfField(s))
                        .raw("<button type=\"submit\" class=\"danger\" aria-label=\"Delete bucket ").text(b.name())
                        .raw("\">Delete</button></form>");
            } else if (admin) {
                // Deleting a bucket that holds objects or versions only fails: say what it takes instead.
                h.raw("<span class=\"help not-empty\">Delete it once it is empty</span>");
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table>");
        return Pages.html(200, h.end());
    }

    @PostMapping("/console/buckets")
    ResponseEntity<Void> create(@RequestParam("name") String name, HttpServletRequest request) throws IOException {
        ConsoleSession s = ConsoleGuard.session(request);
        Pages.require(access, s, null, ConsoleAccess.Action.ADMIN);
        Pages.require(access, s, name, ConsoleAccess.Action.ADMIN);
        if (!NAME.matcher(name).matches() || name.equals("actuator") || name.equals("console")) {
            return Pages.redirect("/console/buckets?error=" + Html.q("Invalid bucket name: " + name));
        }
        try {
            store.createBucket(name, BucketAcl.PRIVATE);
        } catch (StoreException e) {
            return Pages.redirect("/console/buckets?error=" + Html.q("Bucket " + name + " exists already"));
        }
        return Pages.redirect("/console/buckets?done=" + Html.q("Created bucket " + name));
    }

    @PostMapping("/console/buckets/{bucket}/delete")
    ResponseEntity<Void> delete(@PathVariable("bucket") String bucket, HttpServletRequest request) throws IOException {
        Pages.require(access, ConsoleGuard.session(request), bucket, ConsoleAccess.Action.ADMIN);
        try {
            store.deleteBucket(bucket);
        } catch (StoreException e) {
            String why = e.reason() == StoreException.Reason.BUCKET_NOT_EMPTY ? " is not empty" : " does not exist";
            return Pages.redirect("/console/buckets?error=" + Html.q("Bucket " + bucket + why));
        }
        return Pages.redirect("/console/buckets?done=" + Html.q("Deleted bucket " + bucket));
    }

    @PostMapping("/console/buckets/{bucket}/public")
    ResponseEntity<Void> publicRead(@PathVariable("bucket") String bucket, @RequestParam("on") boolean on, HttpServletRequest request)
            throws IOException {
        Pages.require(access, ConsoleGuard.session(request), bucket, ConsoleAccess.Action.ADMIN);
        store.setBucketAcl(bucket, on ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE);
        return Pages.redirect("/console/buckets?done=" + Html.q("Public read " + (on ? "on" : "off") + " for " + bucket));
    }

    /** The bucket's versioning state; for an admin, a button to enable it (or to suspend it once enabled). */
    private static void versioning(Html h, ConsoleSession s, BucketInfo b, boolean admin) {
        String state = switch (b.versioning()) {
            case UNVERSIONED -> "Off";
            case ENABLED -> "Enabled";
            case SUSPENDED -> "Suspended";
        };
        if (!admin) {
            h.raw(state);
            return;
        }
        boolean enabled = b.versioning() == Versioning.ENABLED;
        h.raw("<form method=\"post\" action=\"/console/buckets/").text(b.name()).raw("/versioning\">").raw(Html.csrfField(s))
                .raw("<input type=\"hidden\" name=\"status\" value=\"").raw(enabled ? "Suspended" : "Enabled").raw("\">")
                .raw(state).raw(" <button type=\"submit\" aria-label=\"").raw(enabled ? "Suspend" : "Enable")
                .raw(" versioning for ").text(b.name()).raw("\">").raw(enabled ? "Suspend" : "Enable").raw("</button></form>");
    }

    @PostMapping("/console/buckets/{bucket}/versioning")
    ResponseEntity<Void> versioning(@PathVariable("bucket") String bucket, @RequestParam("status") String status,
                                    HttpServletRequest request) throws IOException {
        Pages.require(access, ConsoleGuard.session(request), bucket, ConsoleAccess.Action.ADMIN);
        Versioning v = Versioning.ofStatus(status);
        if (v == null) {
            throw Pages.badRequest("versioning status is Enabled or Suspended");
        }
        try {
            store.setBucketVersioning(bucket, v);
        } catch (UnsupportedOperationException e) {
            return Pages.redirect("/console/buckets?error=" + Html.q("This store keeps no versions"));
        }
        return Pages.redirect("/console/buckets?done=" + Html.q("Versioning " + status + " for " + bucket));
    }

    /** Whether the bucket holds nothing a deletion would refuse: no object, and in a versioned bucket no older version or delete marker either. */
    private boolean isEmpty(BucketInfo b, long objects) throws IOException {
        if (objects > 0) {
            return false;
        }
        return b.versioning() == Versioning.UNVERSIONED
                || store.listObjectVersions(b.name(), new VersionQuery("", null, null, null, 1)).versions().isEmpty();
    }

    /** Objects and bytes of a bucket, counting at most the configured number of objects. */
    private long[] usage(String bucket) throws IOException {
        long count = 0;
        long bytes = 0;
        String after = null;
        while (count < countLimit) {
            ListPage page = store.listObjects(bucket, new ListQuery("", null, after, (int) Math.min(1000, countLimit - count)));
            for (ObjectInfo o : page.objects()) {
                count++;
                bytes += o.size();
            }
            if (!page.truncated() || page.lastReturned() == null) {
                break;
            }
            after = page.lastReturned();
        }
        return new long[] {count, bytes};
    }
}
