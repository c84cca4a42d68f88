package dev.cairn.backup.target;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** SDK clients for S3 targets and S3 restore destinations. */
public final class S3Clients {
    /** Connections per client: enough for the copy threads of a run. */
    static final int MAX_CONNECTIONS = 32;

    private S3Clients() {
    }

    /**
     * A client of {@code endpoint} (null: the SDK's resolution for the region), path-style when
     * an endpoint is given, with keys read from files (null: the SDK's credential chain).
     */
    public static S3Client create(String endpoint, String region, Path accessKeyFile, Path secretKeyFile)
            throws IOException {
        AwsCredentialsProvider credentials;
        if (accessKeyFile != null || secretKeyFile != null) {
            if (accessKeyFile == null || secretKeyFile == null) {
                throw new IllegalArgumentException("give both the access key file and the secret key file, or neither");
            }
            credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create(
                    readKey(accessKeyFile), readKey(secretKeyFile)));
        } else {
            credentials = DefaultCredentialsProvider.builder().build();
        }
        S3ClientBuilder b = S3Client.builder()
                .region(Region.of(region))
                .credentialsProvider(credentials)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(MAX_CONNECTIONS)
                        .connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofSeconds(60)));
        if (endpoint != null) {
            b.endpointOverride(URI.create(endpoint)).forcePathStyle(true);
        }
        return b.build();
    }

    private static String readKey(Path file) throws IOException {
        try {
            String key = Files.readString(file).strip();
            if (key.isEmpty()) {
                throw new IOException(file + " is empty");
            }
            return key;
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException("key file " + file + " does not exist");
        }
    }
}
