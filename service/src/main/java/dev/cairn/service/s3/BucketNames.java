package dev.cairn.service.s3;

/**
 * S3's bucket naming rules (the current, strict ones), and the names Cairn keeps for itself:
 * {@code actuator} (path-style {@code /actuator/**} is the operations endpoint). Stateless;
 * thread-safe.
 */
final class BucketNames {
    static final String RESERVED = "actuator";
    /** Kept by S3 for its own naming schemes (access point aliases, directory and table buckets). */
    private static final String[] RESERVED_PREFIXES = {"xn--", "sthree-", "amzn-s3-demo-"};
    private static final String[] RESERVED_SUFFIXES = {"-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"};

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
        for (String prefix : RESERVED_PREFIXES) {
            if (name.startsWith(prefix)) {
                return false;
            }
        }
        for (String suffix : RESERVED_SUFFIXES) {
            if (name.endsWith(suffix)) {
                return false;
            }
        }
        return !name.matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
    }

    private static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }
}
