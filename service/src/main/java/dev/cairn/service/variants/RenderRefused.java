package dev.cairn.service.variants;

import dev.cairn.service.s3.S3Exception;

/** Why a source gives no variant: not an image, damaged, animated, too large. Answered 400 (S3 XML). */
final class RenderRefused extends Exception {
    final String code;

    RenderRefused(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    static RenderRefused invalidImage(String message) {
        return new RenderRefused("InvalidImage", message);
    }

    static RenderRefused tooLarge(String message) {
        return new RenderRefused("ImageTooLarge", message);
    }

    S3Exception toS3() {
        return new S3Exception(code, 400, getMessage());
    }
}
