package dev.cairn.service.console;

import dev.cairn.service.auth.UriEncoding;

/**
 * Builds the console's pages: text and attribute escaping, query encoding, and the layout every
 * page shares (head with the CSRF token, navigation, sign-out). Pages are written as plain
 * strings; everything that comes from a user or the store goes through {@link #esc}.
 * Not thread-safe: one per page.
 */
final class Html {
    private final StringBuilder out = new StringBuilder(8 * 1024);

    /** Escapes for text and for double-quoted attribute values. */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A query parameter value, percent-encoded. */
    static String q(String s) {
        return UriEncoding.encode(s == null ? "" : s, false);
    }

    Html raw(String s) {
        out.append(s);
        return this;
    }

    Html text(String s) {
        out.append(esc(s));
        return this;
    }

    /** The page's start: head, skip link, navigation for a signed-in session (null: none), then {@code <main>}. */
    Html begin(String title, ConsoleSession session, boolean mayOperate) {
        out.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(esc(title)).append(" · Cairn</title>")
                .append("<link rel=\"stylesheet\" href=\"/console/assets/console.css\">");
        if (session != null) {
            out.append("<meta name=\"csrf-token\" content=\"").append(esc(session.csrfToken())).append("\">");
        }
        out.append("<script src=\"/console/assets/console.js\" defer></script></head><body>")
                .append("<a class=\"skip\" href=\"#main\">Skip to content</a><header><span class=\"brand\">Cairn</span>");
        if (session != null) {
            out.append("<nav aria-label=\"Main\"><ul><li><a href=\"/console/buckets\">Buckets</a></li>");
            if (mayOperate) {
                out.append("<li><a href=\"/console/ops\">Operations</a></li>");
            }
            out.append("</ul></nav><form class=\"signout\" method=\"post\" action=\"/console/logout\">")
                    .append(csrfField(session)).append("<span class=\"who\">").append(esc(session.accessKey()))
                    .append("</span> <button type=\"submit\">Sign out</button></form>");
        }
        out.append("</header><main id=\"main\"><h1>").append(esc(title)).append("</h1>");
        return this;
    }

    static String csrfField(ConsoleSession session) {
        return "<input type=\"hidden\" name=\"_csrf\" value=\"" + esc(session.csrfToken()) + "\">";
    }

    /** A message shown at the top of a page (role status, so screen readers announce it). */
    Html notice(String message, boolean error) {
        if (message != null && !message.isEmpty()) {
            out.append("<p class=\"").append(error ? "error" : "notice").append("\" role=\"")
                    .append(error ? "alert" : "status").append("\">").append(esc(message)).append("</p>");
        }
        return this;
    }

    String end() {
        out.append("</main></body></html>");
        return out.toString();
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
