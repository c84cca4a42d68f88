package dev.cairn.service.bench;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signature V4 request heads for {@link MemoryLoad} (region us-east-1, unsigned payload, every
 * header signed), written from the AWS specification, apart from the service's own verifier.
 * Thread-safe.
 */
final class SigV4 {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final String REGION = "us-east-1";

    private final String access;
    private final String secret;
    private final String host;

    SigV4(String access, String secret, String host) {
        this.access = access;
        this.secret = secret;
        this.host = host;
    }

    /**
     * The head of a request, Authorization included.
     *
     * @param query   canonical already: parameters sorted, values encoded, {@code name=} for no value
     * @param headers "Name: value" lines besides Host and the signature's own
     */
    String head(String method, String path, String query, List<String> headers) {
        String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(STAMP);
        String date = stamp.substring(0, 8);
        List<String> all = new ArrayList<>();
        all.add("host:" + host);
        all.add("x-amz-content-sha256:UNSIGNED-PAYLOAD");
        all.add("x-amz-date:" + stamp);
        for (String h : headers) {
            int colon = h.indexOf(':');
            all.add(h.substring(0, colon).trim().toLowerCase(Locale.ROOT) + ":" + h.substring(colon + 1).trim());
        }
        all.sort(null);
        StringBuilder canonicalHeaders = new StringBuilder();
        StringBuilder signed = new StringBuilder();
        for (String h : all) {
            canonicalHeaders.append(h).append('\n');
            signed.append(signed.length() == 0 ? "" : ";").append(h, 0, h.indexOf(':'));
        }
        String canonical = method + "\n" + path + "\n" + query + "\n" + canonicalHeaders + "\n" + signed
                + "\nUNSIGNED-PAYLOAD";
        String scope = date + "/" + REGION + "/s3/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + stamp + "\n" + scope + "\n" + Content.hex(sha256(canonical));
        byte[] key = hmac(hmac(hmac(hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date), REGION), "s3"),
                "aws4_request");
        String signature = Content.hex(hmac(key, toSign));
        StringBuilder head = new StringBuilder(method).append(' ').append(path)
                .append(query.isEmpty() ? "" : "?" + query).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append("\r\n")
                .append("x-amz-content-sha256: UNSIGNED-PAYLOAD\r\n")
                .append("x-amz-date: ").append(stamp).append("\r\n");
        for (String h : headers) {
            head.append(h).append("\r\n");
        }
        return head.append("Authorization: AWS4-HMAC-SHA256 Credential=").append(access).append('/').append(scope)
                .append(", SignedHeaders=").append(signed).append(", Signature=").append(signature)
                .append("\r\n\r\n").toString();
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] sha256(String data) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
