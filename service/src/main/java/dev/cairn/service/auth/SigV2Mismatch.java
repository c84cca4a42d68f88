package dev.cairn.service.auth;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Signature Version 2 request whose signature is not that of its string to sign: S3's
 * SignatureDoesNotMatch, whose error document shows the string the server signed so that the
 * client can compare it with its own. The secret never appears.
 */
public final class SigV2Mismatch extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String accessKey;
    private final String stringToSign;
    private final String signatureProvided;

    SigV2Mismatch(String accessKey, String stringToSign, String signatureProvided) {
        super("The request signature we calculated does not match the signature you provided. "
                + "Check your key and signing method.", null, false, false);
        this.accessKey = accessKey;
        this.stringToSign = stringToSign;
        this.signatureProvided = signatureProvided;
    }

    /** The elements S3 adds to the error document, in its order. */
    public Map<String, String> details() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("AWSAccessKeyId", accessKey);
        d.put("StringToSign", stringToSign);
        d.put("SignatureProvided", signatureProvided);
        StringBuilder bytes = new StringBuilder();
        for (byte b : stringToSign.getBytes(StandardCharsets.UTF_8)) {
            if (bytes.length() > 0) {
                bytes.append(' ');
            }
            bytes.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        d.put("StringToSignBytes", bytes.toString());
        return d;
    }

    public String stringToSign() {
        return stringToSign;
    }
}
