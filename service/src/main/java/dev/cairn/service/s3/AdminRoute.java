package dev.cairn.service.s3;

import java.io.IOException;

/**
 * The admin API's paths, {@code /_admin} and below on the service's own host, which the front door
 * hands to the admin endpoint instead of answering them as S3. Declared here, where the URL space is
 * divided, so that the S3 package does not depend on the admin package that builds on it.
 */
public interface AdminRoute {
    String PREFIX = "/_admin/";

    static boolean isAdmin(String rawPath) {
        return rawPath != null && (rawPath.startsWith(PREFIX) || rawPath.equals("/_admin"));
    }

    /** Answers one admin request completely, errors included. */
    void serve(HttpExchange http) throws IOException;
}
