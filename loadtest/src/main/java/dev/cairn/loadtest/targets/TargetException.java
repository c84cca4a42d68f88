package dev.cairn.loadtest.targets;

/**
 * An operation failed; {@link #kind} names the failure for the error counts ({@code connect},
 * {@code timeout}, {@code io}, {@code http-503}, {@code s3-NoSuchKey}, {@code wrong-content} ...).
 */
public final class TargetException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String kind;

    public TargetException(String kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public TargetException(String kind, String message) {
        this(kind, message, null);
    }

    public String kind() {
        return kind;
    }

    /** The kind of an I/O failure below HTTP. */
    public static String kindOf(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof java.net.ConnectException || c instanceof java.net.NoRouteToHostException) {
                return "connect";
            }
            if (c instanceof java.net.SocketTimeoutException || c instanceof java.net.http.HttpTimeoutException
                    || c.getClass().getSimpleName().contains("Timeout")) {
                return "timeout";
            }
        }
        return "io";
    }
}
