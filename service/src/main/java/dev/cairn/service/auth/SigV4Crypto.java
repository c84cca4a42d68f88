package dev.cairn.service.auth;

import dev.cairn.store.Hex;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 and SHA-256 helpers of SigV4. Thread-safe: stateless. */
final class SigV4Crypto {
    static final String HMAC_SHA256 = "HmacSHA256";
    static final HexFormat HEX = HexFormat.of();
    static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private SigV4Crypto() {
    }

    // Looking a primitive up costs more than using it on the short strings of a request: each thread
    // keeps one, used only within a call, never across calls.
    private static final ThreadLocal<MessageDigest> THREAD_SHA256 = ThreadLocal.withInitial(SigV4Crypto::sha256);
    private static final ThreadLocal<KeyedMac> THREAD_MAC = ThreadLocal.withInitial(KeyedMac::new);

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    static String sha256Hex(String data) {
        MessageDigest digest = THREAD_SHA256.get();
        digest.reset();
        return HEX.formatHex(digest.digest(data.getBytes(StandardCharsets.UTF_8)));
    }

    private static Mac newMac() {
        try {
            return Mac.getInstance(HMAC_SHA256);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every Java platform", e);
        }
    }

    private static Mac init(Mac mac, byte[] key) {
        try {
            mac.init(new SecretKeySpec(key, HMAC_SHA256));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 rejected a key", e);
        }
    }

    /** A MAC of its own initialised with {@code key}, for an object that signs across calls. */
    static Mac mac(byte[] key) {
        return init(newMac(), key);
    }

    /**
     * This thread's MAC initialised with {@code key}. Use it only until the calling method returns
     * and before any other use of this thread's MAC.
     */
    static Mac threadMac(byte[] key) {
        KeyedMac keyed = THREAD_MAC.get();
        if (keyed.key != key) {
            init(keyed.mac, key);
            keyed.key = key;
        } else {
            keyed.mac.reset();
        }
        return keyed.mac;
    }

    /**
     * A thread's MAC and the key array it was last initialised with: requests under one cached
     * signing key skip the key setup. Key arrays are never modified once made.
     */
    private static final class KeyedMac {
        final Mac mac = newMac();
        byte[] key;
    }

    static byte[] hmac(byte[] key, String data) {
        return threadMac(key).doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    /** kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request"). */
    static byte[] signingKey(String secret, String date, String region, String service) {
        byte[] key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
        key = hmac(key, region);
        key = hmac(key, service);
        return hmac(key, "aws4_request");
    }

    /** The lowercase hex signature of {@code stringToSign} under {@code mac}'s key. */
    static String sign(Mac mac, String stringToSign) {
        return HEX.formatHex(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    }

    /** Constant-time comparison of two hex signatures. */
    static boolean signaturesEqual(String expected, String provided) {
        if (provided == null) {
            return false;
        }
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                provided.getBytes(StandardCharsets.US_ASCII));
    }

    static boolean isLowerHex(String s, int length) {
        return s != null && s.length() == length && Hex.isLowerHex(s);
    }
}
