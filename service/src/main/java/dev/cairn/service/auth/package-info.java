/**
 * AWS Signature Version 4 authentication for the S3 API, in plain Java (no servlet or Spring
 * types), so that it is unit-testable and usable from any HTTP layer.
 *
 * <p>Use per request:
 * <ol>
 *   <li>Build a {@link dev.cairn.service.auth.SignedRequest} from the wire form: the method, the
 *       request path still percent-encoded (a servlet's {@code getRequestURI()}), the raw query
 *       ({@code getQueryString()}), and every header with all its values. The {@code host} header
 *       must be present (HTTP/2: the authority).</li>
 *   <li>{@link dev.cairn.service.auth.SigV4Verifier#authenticate} checks the credential, scope,
 *       time and signature, or throws {@link dev.cairn.service.auth.AuthException} carrying the S3
 *       error code and status. An unsigned request comes back anonymous; allowing it is the
 *       caller's decision.</li>
 *   <li>Read the body only through {@link dev.cairn.service.auth.AuthResult#wrapBody}: it decodes
 *       aws-chunked bodies and verifies payload hash, chunk signatures, trailer signature and
 *       trailer checksums, throwing {@link dev.cairn.service.auth.AuthFailureIOException} on any
 *       mismatch, at the latest at end of stream. Nothing read may be kept unless the stream
 *       reached end of stream without throwing. Then
 *       {@link dev.cairn.service.auth.AuthResult#trailers} holds the trailing checksums, and
 *       {@link dev.cairn.service.auth.AuthResult#decodedContentLength} is the object's length.</li>
 * </ol>
 *
 * <p>{@link dev.cairn.service.auth.SigV2Verifier} checks AWS Signature Version 2 (header and
 * presigned URL) for older clients, apart from Version 4's hot path; its body is read as sent.
 *
 * <p>{@link dev.cairn.service.auth.ChecksumAlgorithm} verifies {@code x-amz-checksum-*} headers of
 * bodies that are not aws-chunked, with the same streaming digests.
 */
package dev.cairn.service.auth;
