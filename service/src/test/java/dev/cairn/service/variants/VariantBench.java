package dev.cairn.service.variants;

import com.sun.jna.Native;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Cold variant renders through a running service next to libvips alone in a loop (set up as the service sets it up: one
 * thread per render, no operation cache), not a test:
 * the same JPEGs (LibraryBench write), each request a variant not rendered
 * before (320 pixels wide, WebP, at a quality not yet asked of that source: the pairs repeat
 * after 300 requests; run it on an empty data directory), one at a time, rounds
 * alternated. Prints {@code source cairn_renders_per_s cairn_p99_ms library_renders_per_s
 * library_p99_ms ratio} per source size (medians of the rounds; ratio = Cairn ÷ library).
 * usage: VariantBench ENDPOINT BUCKET TOKEN ROUNDS PER_ROUND DIR...: each DIR (its name the label)
 * holds 0.jpg, 1.jpg, ..., stored in the public-read BUCKET as {@code DIR-name/i.jpg}.
 */
public final class VariantBench {
    private VariantBench() {
    }

    public static void main(String[] args) throws Exception {
        URI endpoint = URI.create(args[0]);
        String bucket = args[1];
        String token = args[2];
        int rounds = Integer.parseInt(args[3]);
        int perRound = Integer.parseInt(args[4]);
        LibraryBench.Vips vips = Native.load("vips", LibraryBench.Vips.class);
        vips.vips_init("bench");
        // As the service sets libvips up (Vips): one thread per render, no operation cache.
        vips.vips_concurrency_set(1);
        vips.vips_cache_set_max(0);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        int q = 1;
        for (int a = 5; a < args.length; a++) {
            Path dir = Path.of(args[a]);
            List<byte[]> sources = new ArrayList<>();
            for (int i = 0; Files.exists(dir.resolve(i + ".jpg")); i++) {
                sources.add(Files.readAllBytes(dir.resolve(i + ".jpg")));
            }
            String label = dir.getFileName().toString();
            double[] cairnRate = new double[rounds];
            double[] libRate = new double[rounds];
            List<Long> cairnLat = new ArrayList<>();
            List<Long> libLat = new ArrayList<>();
            for (int r = -1; r < rounds; r++) { // round -1 warms both up
                long t0 = System.nanoTime();
                for (int n = 0; n < perRound; n++, q = q % 100 + 1) {
                    String path = "/" + bucket + "/" + label + "/" + (n % sources.size()) + ".jpg";
                    String query = "w=320&fm=webp&q=" + q;
                    URI uri = URI.create(endpoint + path + "?" + query + "&s=" + ImgixSignature.sign(token, path, query));
                    long at = System.nanoTime();
                    HttpResponse<byte[]> resp = http.send(HttpRequest.newBuilder(uri).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    if (resp.statusCode() != 200) {
                        throw new IllegalStateException(resp.statusCode() + " " + new String(resp.body()));
                    }
                    if (r >= 0) {
                        cairnLat.add(System.nanoTime() - at);
                    }
                }
                if (r >= 0) {
                    cairnRate[r] = perRound / ((System.nanoTime() - t0) / 1e9);
                }
                t0 = System.nanoTime();
                for (int n = 0; n < perRound; n++, q = q % 100 + 1) {
                    long at = System.nanoTime();
                    LibraryBench.vips(vips, sources.get(n % sources.size()), ".webp[Q=" + q + ",strip]");
                    if (r >= 0) {
                        libLat.add(System.nanoTime() - at);
                    }
                }
                if (r >= 0) {
                    libRate[r] = perRound / ((System.nanoTime() - t0) / 1e9);
                }
            }
            double c = median(cairnRate);
            double l = median(libRate);
            System.out.printf(Locale.ROOT, "%s %.1f %.1f %.1f %.1f %.3f%n", label, c, p99(cairnLat), l, p99(libLat), c / l);
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static double p99(List<Long> nanos) {
        long[] s = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        return s[(int) Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] / 1e6;
    }
}
