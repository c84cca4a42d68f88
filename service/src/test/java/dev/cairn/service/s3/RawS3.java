package dev.cairn.service.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Requests signed by the AWS SDK's own SigV4 signer and sent over a plain socket, so a test
 * controls every byte: alter the body after signing, send only part of it, or wait for
 * {@code 100 Continue}. Not thread-safe.
 */
final class RawS3 {
    private final int port;
    private final String accessKey;
    private final String secretKey;

    RawS3(int port, String accessKey, String secretKey) {
        this.port = port;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
    }

    /** A signed request: its head (request line and headers) and body as they go on the wire. */
    record Wire(String head, byte[] body) {
    }

    record Response(int status, Map<String, String> headers, String body) {
    }

    /**
     * Signs a PUT of {@code body} to {@code path}: chunked (aws-chunked, signed chunks, with a
     * CRC32 trailer when {@code trailer}) or with an unsigned payload.
     */
    Wire signPut(String path, byte[] body, boolean chunked, boolean trailer, Map<String, String> extraHeaders) {
        SdkHttpRequest.Builder b = SdkHttpRequest.builder().method(SdkHttpMethod.PUT).protocol("http")
                .host("127.0.0.1").port(port).encodedPath(path)
                .putHeader("Content-Length", Integer.toString(body.length));
        extraHeaders.forEach(b::putHeader);
        SdkHttpRequest unsigned = b.build();
        var signed = AwsV4HttpSigner.create().sign(r -> {
            r.identity(AwsCredentialsIdentity.create(accessKey, secretKey)).request(unsigned)
                    .payload(ContentStreamProvider.fromByteArray(body))
                    .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                    .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "s3")
                    .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
                    .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false)
                    .putProperty(AwsV4FamilyHttpSigner.SIGNING_CLOCK, Clock.systemUTC())
                    .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, chunked);
            if (chunked) {
                r.putProperty(AwsV4FamilyHttpSigner.CHUNK_ENCODING_ENABLED, true);
            }
            if (trailer) {
                r.putProperty(AwsV4FamilyHttpSigner.CHECKSUM_ALGORITHM, ChecksumAlgorithm.class.cast(
                        software.amazon.awssdk.checksums.DefaultChecksumAlgorithm.CRC32));
            }
        });
        byte[] wireBody;
        try (InputStream in = signed.payload().orElseThrow().newStream()) {
            wireBody = in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        StringBuilder head = new StringBuilder("PUT " + path + " HTTP/1.1\r\n");
        head.append("Host: 127.0.0.1:").append(port).append("\r\n");
        signed.request().forEachHeader((name, values) -> {
            if (!name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-length")) {
                values.forEach(v -> head.append(name).append(": ").append(v).append("\r\n"));
            }
        });
        head.append("Content-Length: ").append(wireBody.length).append("\r\n");
        return new Wire(head.toString(), wireBody);
    }

    /** Sends the request whole and reads the response. */
    Response send(Wire w) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write((w.head() + "Connection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(w.body());
            out.flush();
            return read(s.getInputStream());
        }
    }

    /** Sends the head and only the first {@code bytes} of the body, then closes the connection. */
    void sendPartly(Wire w, int bytes) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write((w.head() + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(w.body(), 0, bytes);
            out.flush();
        }
    }

    /**
     * Sends the head with {@code Expect: 100-continue} and returns the first response the server
     * gives before any body byte is sent.
     */
    Response expectContinue(Wire w) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write((w.head() + "Expect: 100-continue\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return read(s.getInputStream());
        }
    }

    static Response read(InputStream in) throws IOException {
        String status = line(in);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l = line(in); !l.isEmpty(); l = line(in)) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
        }
        int code = Integer.parseInt(status.split(" ")[1]);
        String length = headers.get("content-length");
        byte[] body = code == 100 || length == null ? new byte[0] : in.readNBytes(Integer.parseInt(length));
        return new Response(code, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.UTF_8);
    }

}
