package dev.cairn.service.s3;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;

/**
 * The icon a browser asks every site for, {@code /favicon.ico}: a browser's unsigned GET or HEAD
 * of exactly that path is handed to Spring, which serves the icon from {@code static/}, instead of
 * being answered as S3 with an AccessDenied that every console page would log. Signed requests
 * (and virtual-hosted ones, which the caller leaves to S3) still reach a bucket named
 * {@code favicon.ico}.
 */
final class FaviconRoute {
    static final String PATH = "/favicon.ico";

    private FaviconRoute() {
    }

    static boolean isFavicon(Request request) {
        String method = request.getMethod();
        return PATH.equals(request.getHttpURI().getPath()) && request.getHttpURI().getQuery() == null
                && (HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method))
                && !request.getHeaders().contains(HttpHeader.AUTHORIZATION);
    }
}
