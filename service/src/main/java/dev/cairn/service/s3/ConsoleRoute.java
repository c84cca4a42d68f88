package dev.cairn.service.s3;

/**
 * Which paths belong to the console: {@code /console} and below, on the service's own host (a
 * virtual-hosted request for a bucket named {@code console} stays S3's). Here, beside the S3 front
 * door, because the front door owns the URL space and hands these paths on; the Jetty handler in
 * front of the servlet context asks this before anything else, so it must stay a few compares.
 */
public final class ConsoleRoute {
    public static final String PREFIX = "/console";

    private ConsoleRoute() {
    }

    public static boolean isConsole(String rawPath) {
        return rawPath != null && rawPath.startsWith(PREFIX)
                && (rawPath.length() == PREFIX.length() || rawPath.charAt(PREFIX.length()) == '/');
    }
}
