package dev.cairn.service.console;

import dev.cairn.service.config.ConsoleProperties;
import dev.cairn.store.ContentRead;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectStore;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Set;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * An object's bytes for the console: thumbnails (made once per content, {@link ThumbnailCache})
 * and the original (the current version, or the one named by {@code versionId}), served inline
 * only when it is a raster image (anything else downloads, so stored HTML or SVG never runs in
 * the console's origin).
 */
@Controller
@ConsoleOn
class ContentController {
    private static final Set<String> INLINE_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");

    private final ObjectStore store;
    private final ConsoleAccess access;
    private final ThumbnailCache thumbnails;
    private final long maxInput;

    ContentController(ObjectStore store, ConsoleAccess access, ThumbnailCache thumbnails, ConsoleProperties settings) {
        this.store = store;
        this.access = access;
        this.thumbnails = thumbnails;
        this.maxInput = settings.getThumbnailMaxInputSize().toBytes();
    }

    @GetMapping("/console/b/{bucket}/thumb")
    void thumbnail(@PathVariable("bucket") String bucket, @RequestParam("key") String key, @RequestParam(name = "size", defaultValue = "256") int size,
                   HttpServletRequest request, HttpServletResponse response) throws IOException {
        Pages.require(access, ConsoleGuard.session(request), bucket, ConsoleAccess.Action.READ);
        if (!ThumbnailCache.isServedSize(size)) {
            throw Pages.badRequest("thumbnail sizes are 128, 256 and 512");
        }
        ObjectInfo o = store.headObject(bucket, key);
        if (o == null) {
            throw Pages.notFound("no object " + key + " in " + bucket);
        }
        String etag = "\"" + o.sha256() + "-" + size + "\"";
        response.setHeader("ETag", etag);
        response.setHeader("Cache-Control", "private, max-age=86400");
        if (etag.equals(request.getHeader("If-None-Match"))) {
            response.setStatus(304);
            return;
        }
        if (o.size() > maxInput) {
            refuse(response, "the object is larger than cairn.console.thumbnail-max-input-size");
            return;
        }
        ThumbnailCache.Result r = thumbnails.get(o.sha256(), size, () -> {
            ContentRead content = store.getContent(o.sha256());
            if (content == null) {
                throw new IOException("content " + o.sha256() + " is gone");
            }
            return content.openAll();
        });
        if (r.jpeg() == null) {
            refuse(response, r.refusal());
            return;
        }
        response.setContentType("image/jpeg");
        response.setContentLength(r.jpeg().length);
        response.getOutputStream().write(r.jpeg());
    }

    private static void refuse(HttpServletResponse response, String why) throws IOException {
        response.setHeader("Cache-Control", "private, max-age=60");
        response.setStatus(415);
        response.setContentType("text/plain;charset=utf-8");
        response.getWriter().write("no thumbnail: " + why);
    }

    @GetMapping("/console/b/{bucket}/raw")
    void raw(@PathVariable("bucket") String bucket, @RequestParam("key") String key,
             @RequestParam(name = "versionId", required = false) String versionId, HttpServletRequest request,
             HttpServletResponse response) throws IOException {
        Pages.require(access, ConsoleGuard.session(request), bucket, ConsoleAccess.Action.READ);
        if (versionId != null) {
            VersionsController.requireWellFormed(versionId);
        }
        try (ObjectRead read = versionId == null ? store.getObject(bucket, key) : store.getObjectVersion(bucket, key, versionId)) {
            if (read == null) {
                throw Pages.notFound(versionId == null ? "no object " + key + " in " + bucket
                        : "no object version " + versionId + " of " + key + " in " + bucket);
            }
            ObjectInfo o = read.info();
            String type = o.attributes().contentType();
            String name = key.substring(key.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9._-]", "_");
            if (type != null && INLINE_TYPES.contains(type)) {
                response.setContentType(type);
                response.setHeader("Content-Disposition", "inline; filename=\"" + name + "\"");
            } else {
                response.setContentType("application/octet-stream");
                response.setHeader("Content-Disposition", "attachment; filename=\"" + name + "\"");
            }
            response.setHeader("Content-Security-Policy", "sandbox; default-src 'none'");
            response.setHeader("ETag", "\"" + o.etag() + "\"");
            response.setContentLengthLong(o.size());
            try (InputStream in = read.open(0, o.size()); OutputStream out = response.getOutputStream()) {
                in.transferTo(out);
            }
        }
    }
}
