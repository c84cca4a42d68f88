package dev.cairn.service.variants;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.awt.image.BufferedImage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/** Variants through the running service: signatures, presets, formats, refusals, deletion. */
@Tag("integration")
class VariantsTest extends ServiceTestSupport {
    private final HttpClient http = HttpClient.newHttpClient();
    private final String bucket = uniqueBucket("variants");
    /** A public-read bucket: anonymous reads of content by hash, and of absent keys (404, not 403). */
    private final String publicBucket = uniqueBucket("variants-public");
    private byte[] jpeg;

    @BeforeAll
    void objects() throws Exception {
        jpeg = TestImages.jpeg(400, 200);
        for (String b : new String[] {bucket, PRESET_BUCKET}) {
            s3.createBucket(x -> x.bucket(b));
            s3.putObject(x -> x.bucket(b).key("photo.jpg").acl(ObjectCannedACL.PUBLIC_READ).contentType("image/jpeg"),
                    RequestBody.fromBytes(jpeg));
        }
        s3.putObject(x -> x.bucket(bucket).key("private.jpg"), RequestBody.fromBytes(jpeg));
        s3.createBucket(x -> x.bucket(publicBucket).acl(BucketCannedACL.PUBLIC_READ));
        s3.putObject(x -> x.bucket(publicBucket).key("photo.jpg"), RequestBody.fromBytes(jpeg));
        s3.putObject(x -> x.bucket(bucket).key("text.jpg").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("not an image"));
        s3.putObject(x -> x.bucket(bucket).key("bomb.png").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromBytes(TestImages.pngDeclaring(100_000, 100_000)));
        s3.putObject(x -> x.bucket(bucket).key("anim.gif").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromBytes(TestImages.animatedGif(40, 20)));
    }

    private HttpResponse<byte[]> get(String path, String query, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint() + path + (query.isEmpty() ? "" : "?" + query)));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String signed(String path, String query) {
        return query + "&s=" + ImgixSignature.sign(VARIANT_TOKEN, path, query);
    }

    private static String code(HttpResponse<byte[]> r) {
        String body = new String(r.body());
        int at = body.indexOf("<Code>");
        return at < 0 ? body : body.substring(at + 6, body.indexOf("</Code>"));
    }

    @Test
    void aSignedVariantIsRenderedThenServedByItsName() throws Exception {
        String path = "/" + bucket + "/photo.jpg";
        HttpResponse<byte[]> r = get(path, signed(path, "w=100&fm=webp"), null);
        assertEquals(200, r.statusCode(), new String(r.body()));
        assertEquals("image/webp", r.headers().firstValue("Content-Type").orElseThrow());
        BufferedImage img = TestImages.decode(r.body());
        assertEquals(100, img.getWidth());
        assertEquals(50, img.getHeight());
        String etag = r.headers().firstValue("ETag").orElseThrow();
        HttpResponse<byte[]> again = get(path, signed(path, "w=100&fm=webp"), null);
        assertArrayEquals(r.body(), again.body());
        assertEquals(etag, again.headers().firstValue("ETag").orElseThrow());
        HttpResponse<byte[]> notModified = http.send(HttpRequest.newBuilder(URI.create(endpoint() + path + "?"
                + signed(path, "w=100&fm=webp"))).header("If-None-Match", etag).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(304, notModified.statusCode());
        assertArrayEquals(jpeg, get(path, "", null).body(), "a GET without variant parameters is the original");
    }

    @Test
    void unsignedWronglySignedOrReplayedVariantsAreRefused() throws Exception {
        String path = "/" + bucket + "/photo.jpg";
        HttpResponse<byte[]> unsigned = get(path, "w=100", null);
        assertEquals(403, unsigned.statusCode());
        assertEquals("AccessDenied", code(unsigned));
        assertEquals(403, get(path, "w=100&s=0123456789abcdef0123456789abcdef", null).statusCode());
        String other = "/" + bucket + "/private.jpg";
        assertEquals(403, get(other, signed(path, "w=100"), null).statusCode(), "a signature is for its own path");
        assertEquals(403, get(other, signed(other, "w=100"), null).statusCode(),
                "a variant is read as its source: anonymous, a private object is AccessDenied");
        assertEquals(403, get(path, "preset=thumb", null).statusCode(), "this bucket's presets need a signature");
    }

    @Test
    void presetsOfTheirBucketNeedNoSignature() throws Exception {
        HttpResponse<byte[]> r = get("/" + PRESET_BUCKET + "/photo.jpg", "preset=thumb", null);
        assertEquals(200, r.statusCode(), new String(r.body()));
        BufferedImage img = TestImages.decode(r.body());
        assertEquals(160, img.getWidth());
        assertEquals(160, img.getHeight());
        assertEquals(400, get("/" + PRESET_BUCKET + "/photo.jpg", "preset=nope", null).statusCode());
    }

    @Test
    void autoFormatFollowsAcceptAndSaysSo() throws Exception {
        String path = "/" + bucket + "/photo.jpg";
        HttpResponse<byte[]> webp = get(path, signed(path, "w=80&auto=format"), "image/webp,*/*");
        assertEquals("image/webp", webp.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("Accept", webp.headers().firstValue("Vary").orElseThrow());
        HttpResponse<byte[]> plain = get(path, signed(path, "w=80&auto=format"), "*/*");
        assertEquals("image/jpeg", plain.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void aVariantFromABucketWithCorsVariesByOriginAndAccept() throws Exception {
        String corsBucket = uniqueBucket("variants-cors");
        s3.createBucket(x -> x.bucket(corsBucket));
        s3.putObject(x -> x.bucket(corsBucket).key("photo.jpg").acl(ObjectCannedACL.PUBLIC_READ).contentType("image/jpeg"),
                RequestBody.fromBytes(jpeg));
        s3.putBucketCors(x -> x.bucket(corsBucket).corsConfiguration(c -> c.corsRules(
                rule -> rule.allowedOrigins("https://app.example").allowedMethods("GET"))));
        String path = "/" + corsBucket + "/photo.jpg";
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint() + path + "?" + signed(path, "w=80&auto=format")))
                .header("Accept", "image/webp,*/*").header("Origin", "https://app.example").build();
        HttpResponse<byte[]> webp = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, webp.statusCode());
        assertEquals("image/webp", webp.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("https://app.example", webp.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        String vary = String.join(", ", webp.headers().allValues("Vary"));
        assertTrue(vary.contains("Origin") && vary.contains("Accept"), vary);
    }

    @Test
    void contentAddressedVariantsAreImmutable() throws Exception {
        String path = "/_cas/" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(jpeg));
        HttpResponse<byte[]> r = get(path, signed(path, "w=50&h=50&fit=crop&fm=png"), null);
        assertEquals(200, r.statusCode(), new String(r.body()));
        assertEquals("image/png", r.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(r.headers().firstValue("Cache-Control").orElseThrow().contains("immutable"));
        assertEquals(50, TestImages.decode(r.body()).getWidth());
        assertEquals(403, get(path, "w=50", null).statusCode());
    }

    @Test
    void badSourcesAndOptionsAreClear400s() throws Exception {
        String text = "/" + bucket + "/text.jpg";
        HttpResponse<byte[]> notImage = get(text, signed(text, "w=10"), null);
        assertEquals(400, notImage.statusCode());
        assertEquals("InvalidImage", code(notImage));
        String gif = "/" + bucket + "/anim.gif";
        HttpResponse<byte[]> animated = get(gif, signed(gif, "w=10"), null);
        assertEquals(400, animated.statusCode());
        assertTrue(new String(animated.body()).contains("animated"));
        String bomb = "/" + bucket + "/bomb.png";
        HttpResponse<byte[]> tooLarge = get(bomb, signed(bomb, "w=10"), null);
        assertEquals(400, tooLarge.statusCode());
        assertEquals("ImageTooLarge", code(tooLarge), "refused on its header: 10^10 pixels are never decoded");
        String photo = "/" + bucket + "/photo.jpg";
        HttpResponse<byte[]> bad = get(photo, signed(photo, "w=10&fit=scale"), null);
        assertEquals(400, bad.statusCode());
        assertEquals("InvalidArgument", code(bad));
    }

    @Test
    void aVariantOfADeletedObjectIsGone() throws Exception {
        byte[] own = TestImages.jpeg(402, 200);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(own));
        s3.putObject(x -> x.bucket(publicBucket).key("gone.jpg"), RequestBody.fromBytes(own));
        String path = "/" + publicBucket + "/gone.jpg";
        assertEquals(200, get(path, signed(path, "w=30"), null).statusCode());
        java.nio.file.Path dir = DATA_DIR.resolve("variants");
        assertEquals(1, variantFiles(dir, sha));
        s3.deleteObject(x -> x.bucket(publicBucket).key("gone.jpg"));
        HttpResponse<byte[]> r = get(path, signed(path, "w=30"), null);
        assertEquals(404, r.statusCode());
        assertEquals("NoSuchKey", code(r));
        variants.sweep(store);
        assertEquals(0, variantFiles(dir, sha), "the sweep removed the variant of content no object holds");
    }

    @org.springframework.beans.factory.annotation.Autowired
    private VariantService variants;
    @org.springframework.beans.factory.annotation.Autowired
    private dev.cairn.store.ObjectStore store;

    private static long variantFiles(java.nio.file.Path dir, String sourceSha) throws java.io.IOException {
        try (var files = java.nio.file.Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(sourceSha + "-")).count();
        }
    }
}
