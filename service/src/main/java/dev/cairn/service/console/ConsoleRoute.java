package dev.cairn.service.console;

/**
 * Which paths belong to the console: {@code /console} and below, on the service's own host (a
 * virtual-hosted request for a bucket named {@code console} stays S3's). The Jetty handler in
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
