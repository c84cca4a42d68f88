package dev.cairn.service.s3;

/**
 * S3's bucket naming rules (the current, strict ones), and the names Cairn keeps for itself:
 * {@code actuator} (path-style {@code /actuator/**} is the operations endpoint). Stateless;
 * thread-safe.
 */
final class BucketNames {
    static final String RESERVED = "actuator";

    private BucketNames() {
    }

    static boolean isValid(String name) {
        if (name == null || name.length() < 3 || name.length() > 63 || name.equals(RESERVED)) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
            if (!ok) {
                return false;
            }
        }
        if (!isAlnum(name.charAt(0)) || !isAlnum(name.charAt(name.length() - 1))) {
            return false;
        }
        if (name.contains("..") || name.contains(".-") || name.contains("-.")) {
            return false;
        }
        if (name.startsWith("xn--") || name.endsWith("-s3alias") || name.endsWith("--ol-s3")) {
            return false;
        }
        return !name.matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
    }

    private static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }
}
