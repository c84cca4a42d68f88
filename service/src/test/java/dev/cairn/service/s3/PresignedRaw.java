package dev.cairn.service.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * URLs presigned by the AWS SDK's presigner, sent over a plain socket with whatever framing and
 * headers a test needs (no SDK sends them): chunked bodies without a length, odd {@code Expect}
 * values. Not thread-safe.
 */
final class PresignedRaw implements AutoCloseable {
    private final int port;
    private final S3Presigner presigner;

    PresignedRaw(int port, String accessKey, String secretKey) {
        this.port = port;
        this.presigner = S3Presigner.builder().endpointOverride(java.net.URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
    }

    /** The path and query of a presigned PutObject. */
    String put(String bucket, String key, Duration valid) {
        URL url = presigner.presignPutObject(p -> p.signatureDuration(valid)
                .putObjectRequest(o -> o.bucket(bucket).key(key))).url();
        return url.getFile();
    }

    /** The path and query of a presigned UploadPart. */
    String uploadPart(String bucket, String key, String uploadId, int part) {
        URL url = presigner.presignUploadPart(p -> p.signatureDuration(Duration.ofMinutes(5))
                .uploadPartRequest(o -> o.bucket(bucket).key(key).uploadId(uploadId).partNumber(part))).url();
        return url.getFile();
    }

    /** Sends a PUT whose body goes in the given HTTP/1.1 chunks (no Content-Length). */
    RawS3.Response putChunked(String target, Map<String, String> headers, byte[]... chunks) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] c : chunks) {
            body.writeBytes((Integer.toHexString(c.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(c);
            body.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        body.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return send("PUT", target, headers, "Transfer-Encoding: chunked\r\n", body.toByteArray());
    }

    /** Sends a PUT with a Content-Length. */
    RawS3.Response put(String target, Map<String, String> headers, byte[] body) throws IOException {
        return send("PUT", target, headers, "Content-Length: " + body.length + "\r\n", body);
    }

    private RawS3.Response send(String method, String target, Map<String, String> headers, String framing, byte[] body)
            throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
            head.append("Host: 127.0.0.1:").append(port).append("\r\n");
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append(framing).append("Connection: close\r\n\r\n");
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            RawS3.Response r = RawS3.read(s.getInputStream());
            return r.status() == 100 ? RawS3.read(s.getInputStream()) : r;
        }
    }

    @Override
    public void close() {
        presigner.close();
    }
}
