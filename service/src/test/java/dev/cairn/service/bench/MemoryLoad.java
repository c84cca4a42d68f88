package dev.cairn.service.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load of the memory benchmark (service/src/test/bench/memory.sh): many keep-alive
 * connections, concurrent large uploads and slow readers, each phase with a few probe
 * connections doing ordinary GETs of a small object alongside, whose rate and p99 are printed.
 * JDK only, one platform thread per connection, so that the connections are really concurrent.
 * Every phase is bounded in time and prints one line of {@code key=value} pairs. Not a test.
 *
 * <pre>
 * java -cp service/target/test-classes dev.cairn.service.bench.MemoryLoad PORT ACCESS SECRET PHASE ARGS...
 *   setup LARGE_MIB               bucket "mem" (public-read), objects "small" (20 KiB), "large" and 16 "image/N" (200 KiB)
 *   probe SECONDS                 the probe alone: the baseline
 *   idle CONNECTIONS SECONDS      connections that each make one GET, then stay open, idle
 *   gets CONNECTIONS SECONDS      connections that each GET "small" in a loop
 *   put COUNT MIB                 concurrent single PUTs of distinct content, each checked by its ETag
 *   multipart COUNT MIB PART_MIB  concurrent multipart uploads (parts one after another), checked likewise
 *   slow READERS SECONDS KIB_S    readers of "large" at KIB_S KiB/s each, content checked, closed after SECONDS
 *   images READERS SECONDS KIB_S  readers of one image after another at KIB_S KiB/s each, content checked,
 *                                 closed after SECONDS
 * </pre>
 */
public final class MemoryLoad {
    static final String BUCKET = "mem";
    static final int SMALL_BYTES = 20 * 1024;
    static final int IMAGES = 16;
    static final int IMAGE_BYTES = 200 * 1024;
    private static final long IMAGE_SEED = 10;
    private static final int PROBES = 4;
    private static final long STACK_BYTES = 256 * 1024;

    private final String host = "127.0.0.1";
    private final int port;
    private final SigV4 signer;

    private MemoryLoad(int port, String access, String secret) {
        this.port = port;
        this.signer = new SigV4(access, secret, host + ":" + port);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: MemoryLoad PORT ACCESS SECRET PHASE ARGS... (see the class comment)");
            System.exit(2);
        }
        MemoryLoad load = new MemoryLoad(Integer.parseInt(args[0]), args[1], args[2]);
        String phase = args[3];
        int[] a = new int[args.length - 4];
        for (int i = 4; i < args.length; i++) {
            a[i - 4] = Integer.parseInt(args[i]);
        }
        String line = switch (phase) {
            case "setup" -> load.setup(a[0]);
            case "probe" -> load.probeOnly(a[0]);
            case "idle" -> load.idle(a[0], a[1]);
            case "gets" -> load.gets(a[0], a[1]);
            case "put" -> load.uploads(a[0], a[1], 0);
            case "multipart" -> load.uploads(a[0], a[1], a[2]);
            case "slow" -> load.slow(a[0], a[1], a[2]);
            case "images" -> load.images(a[0], a[1], a[2]);
            default -> throw new IllegalArgumentException("unknown phase " + phase);
        };
        System.out.println(line);
        System.exit(0);
    }

    private String setup(int largeMib) throws IOException {
        try (HttpConn c = connect(0)) {
            HttpConn.Response r = c.exchange(signer.head("PUT", "/" + BUCKET, "", List.of("x-amz-acl: public-read")), 0, null);
            if (r.status() != 200 && r.status() != 409) {
                throw new IOException("CreateBucket answered " + r.status() + ": " + r.text());
            }
            put(c, "/" + BUCKET + "/small", "", Content.SMALL_SEED, SMALL_BYTES);
            put(c, "/" + BUCKET + "/large", "", Content.LARGE_SEED, (long) largeMib << 20);
            for (int i = 0; i < IMAGES; i++) {
                put(c, "/" + BUCKET + "/image/" + i, "", IMAGE_SEED + i, IMAGE_BYTES);
            }
        }
        return "setup=ok";
    }

    private String probeOnly(int seconds) throws Exception {
        Probe probe = Probe.start(this);
        sleepSeconds(seconds);
        return probe.stop();
    }

    private String idle(int connections, int seconds) throws Exception {
        List<HttpConn> open = new ArrayList<>(connections);
        AtomicLong failed = new AtomicLong();
        // Opened from a few threads: a connection's first GET proves the server accepted and parsed it.
        List<Thread> openers = new ArrayList<>();
        ConcurrentLinkedQueue<HttpConn> opened = new ConcurrentLinkedQueue<>();
        AtomicLong next = new AtomicLong();
        for (int t = 0; t < 16; t++) {
            openers.add(thread("opener-" + t, () -> {
                while (next.getAndIncrement() < connections) {
                    try {
                        HttpConn c = connect(0);
                        opened.add(c);
                        HttpConn.Response r = c.exchange(getSmall(), 0, null);
                        if (r.status() != 200) {
                            failed.incrementAndGet();
                        }
                    } catch (IOException e) {
                        failed.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : openers) {
            t.join();
        }
        open.addAll(opened);
        Probe probe = Probe.start(this);
        sleepSeconds(seconds);
        String result = probe.stop();
        // Still open after the idle time: one more GET on each.
        long alive = 0;
        for (HttpConn c : open) {
            try {
                if (c.exchange(getSmall(), 0, null).status() == 200) {
                    alive++;
                }
            } catch (IOException e) {
                // counted as not alive
            }
            c.close();
        }
        return "connections=" + open.size() + " failed=" + failed.get() + " alive_after=" + alive + " " + result;
    }

    private String gets(int connections, int seconds) throws Exception {
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch done = new CountDownLatch(connections);
        Probe probe = Probe.start(this);
        long start = System.nanoTime();
        for (int i = 0; i < connections; i++) {
            thread("get-" + i, () -> {
                try (HttpConn c = connect(0)) {
                    while (System.nanoTime() < end) {
                        if (c.exchange(getSmall(), 0, null).status() == 200) {
                            ok.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                        }
                    }
                } catch (IOException e) {
                    failed.incrementAndGet();
                } finally {
                    done.countDown();
                }
            });
        }
        done.await(seconds + 120L, TimeUnit.SECONDS);
        double secs = (System.nanoTime() - start) / 1e9;
        return String.format("connections=%d all_gets_per_s=%.0f failed=%d %s", connections, ok.get() / secs,
                failed.get(), probe.stop());
    }

    /** {@code partMib} 0: single PUTs. */
    private String uploads(int count, int mib, int partMib) throws Exception {
        long size = (long) mib << 20;
        AtomicLong ok = new AtomicLong();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(count);
        Probe probe = Probe.start(this);
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long seed = 1000 + i + (partMib > 0 ? 100_000 : 0);
            String path = "/" + BUCKET + "/" + (partMib > 0 ? "multipart/" : "put/") + i;
            thread("upload-" + i, () -> {
                try (HttpConn c = connect(0)) {
                    if (partMib > 0) {
                        multipart(c, path, seed, size, (long) partMib << 20);
                    } else {
                        put(c, path, "", seed, size);
                    }
                    ok.incrementAndGet();
                } catch (IOException | RuntimeException e) {
                    failures.add(e.toString());
                } finally {
                    done.countDown();
                }
            });
        }
        done.await(1, TimeUnit.HOURS);
        double secs = (System.nanoTime() - start) / 1e9;
        String first = failures.isEmpty() ? "" : " first_failure=\"" + failures.peek().replace('"', '\'') + "\"";
        return String.format("uploads=%d ok=%d mib_per_s=%.1f seconds=%.1f %s%s", count, ok.get(),
                ok.get() * (double) mib / secs, secs, probe.stop(), first);
    }

    private String slow(int readers, int seconds, int kibPerSecond) throws Exception {
        AtomicLong bytes = new AtomicLong();
        AtomicLong started = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch done = new CountDownLatch(readers);
        Probe probe = Probe.start(this);
        for (int i = 0; i < readers; i++) {
            thread("slow-" + i, () -> {
                // A small receive buffer, so that the server meets the slowness at once.
                try (HttpConn c = connect(16 * 1024)) {
                    HttpConn.Response r = c.send(getLarge());
                    if (r.status() == 503) {
                        refused.incrementAndGet();
                        return;
                    }
                    if (r.status() != 200) {
                        failures.add("status " + r.status());
                        return;
                    }
                    started.incrementAndGet();
                    readSlowly(c, Content.LARGE_SEED, r.contentLength(), kibPerSecond, end, bytes);
                } catch (IOException | RuntimeException | InterruptedException e) {
                    failures.add(e.toString());
                } finally {
                    done.countDown();
                }
            });
        }
        done.await(seconds + 120L, TimeUnit.SECONDS);
        String first = failures.isEmpty() ? "" : " first_failure=\"" + failures.peek().replace('"', '\'') + "\"";
        return String.format("readers=%d started=%d refused_503=%d failed=%d read_kib_per_s=%.0f %s%s", readers,
                started.get(), refused.get(), failures.size(), bytes.get() / 1024.0 / seconds, probe.stop(), first);
    }

    /**
     * Readers that each GET one image after another on their connection, reading every answer
     * at {@code kibPerSecond}: small answers that wait on their readers.
     */
    private String images(int readers, int seconds, int kibPerSecond) throws Exception {
        AtomicLong bytes = new AtomicLong();
        AtomicLong completed = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch done = new CountDownLatch(readers);
        Probe probe = Probe.start(this);
        for (int i = 0; i < readers; i++) {
            int first = i;
            thread("image-" + i, () -> {
                try (HttpConn c = connect(16 * 1024)) {
                    for (int n = first; System.nanoTime() < end; n++) {
                        int image = n % IMAGES;
                        HttpConn.Response r = c.send("GET /" + BUCKET + "/image/" + image + " HTTP/1.1\r\nHost: " + host
                                + ":" + port + "\r\n\r\n");
                        if (r.status() == 503) {
                            refused.incrementAndGet();
                            return;
                        }
                        if (r.status() != 200 || r.contentLength() != IMAGE_BYTES) {
                            failures.add("status " + r.status() + ", " + r.contentLength() + " bytes");
                            return;
                        }
                        if (readSlowly(c, IMAGE_SEED + image, IMAGE_BYTES, kibPerSecond, end, bytes)) {
                            completed.incrementAndGet();
                        }
                    }
                } catch (IOException | RuntimeException | InterruptedException e) {
                    failures.add(e.toString());
                } finally {
                    done.countDown();
                }
            });
        }
        done.await(seconds + 120L, TimeUnit.SECONDS);
        String first = failures.isEmpty() ? "" : " first_failure=\"" + failures.peek().replace('"', '\'') + "\"";
        return String.format("readers=%d images_read=%d refused_503=%d failed=%d read_kib_per_s=%.0f %s%s", readers,
                completed.get(), refused.get(), failures.size(), bytes.get() / 1024.0 / seconds, probe.stop(), first);
    }

    /** Reads a body at {@code kibPerSecond}, checking it, until it ends or {@code end}; whether it ended. */
    private static boolean readSlowly(HttpConn c, long seed, long length, int kibPerSecond, long end, AtomicLong bytes)
            throws IOException, InterruptedException {
        Content.Checker check = new Content.Checker(seed);
        byte[] buf = new byte[4096];
        long perTick = Math.max(1, kibPerSecond * 1024L / 20);
        long left = length;
        while (left > 0 && System.nanoTime() < end) {
            long tickEnd = System.nanoTime() + 50_000_000L;
            long tick = Math.min(perTick, left);
            while (tick > 0) {
                int n = c.readBody(buf, (int) Math.min(buf.length, tick));
                check.update(buf, n);
                tick -= n;
                left -= n;
                bytes.addAndGet(n);
            }
            long rest = tickEnd - System.nanoTime();
            if (rest > 0) {
                TimeUnit.NANOSECONDS.sleep(rest);
            }
        }
        return left == 0;
    }

    /** Streams generated content as one PUT; its ETag must be the content's MD5. */
    void put(HttpConn c, String path, String query, long seed, long size) throws IOException {
        Content body = new Content(seed, size);
        HttpConn.Response r = c.exchange(signer.head("PUT", path, query, List.of("Content-Length: " + size)), size, body);
        String etag = r.header("etag");
        if (r.status() != 200 || etag == null || !etag.equals("\"" + body.md5Hex() + "\"")) {
            throw new IOException("PUT " + path + " answered " + r.status() + " ETag " + etag + ": " + r.text());
        }
    }

    private void multipart(HttpConn c, String path, long seed, long size, long partSize) throws IOException {
        HttpConn.Response r = c.exchange(signer.head("POST", path, "uploads=", List.of("Content-Length: 0")), 0, null);
        String uploadId = between(r.text(), "<UploadId>", "</UploadId>");
        if (r.status() != 200 || uploadId == null) {
            throw new IOException("CreateMultipartUpload answered " + r.status() + ": " + r.text());
        }
        Content whole = new Content(seed, size);
        StringBuilder complete = new StringBuilder("<CompleteMultipartUpload>");
        java.security.MessageDigest etags = Content.md5();
        int part = 0;
        for (long offset = 0; offset < size; offset += partSize) {
            part++;
            long n = Math.min(partSize, size - offset);
            Content.Slice slice = whole.slice(n);
            String query = "partNumber=" + part + "&uploadId=" + uploadId;
            r = c.exchange(signer.head("PUT", path, query, List.of("Content-Length: " + n)), n, slice);
            String etag = r.header("etag");
            if (r.status() != 200 || etag == null || !etag.equals("\"" + slice.md5Hex() + "\"")) {
                throw new IOException("UploadPart " + part + " answered " + r.status() + " ETag " + etag + ": " + r.text());
            }
            etags.update(slice.md5());
            complete.append("<Part><PartNumber>").append(part).append("</PartNumber><ETag>").append(etag)
                    .append("</ETag></Part>");
        }
        byte[] xml = complete.append("</CompleteMultipartUpload>").toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        r = c.exchange(signer.head("POST", path, "uploadId=" + uploadId, List.of("Content-Length: " + xml.length)),
                xml.length, out -> out.write(xml));
        String expected = "\"" + Content.hex(etags.digest()) + "-" + part + "\"";
        String etag = between(r.text(), "<ETag>", "</ETag>");
        if (r.status() != 200 || etag == null || !etag.replace("&quot;", "\"").equals(expected)) {
            throw new IOException("CompleteMultipartUpload answered " + r.status() + ": " + r.text());
        }
    }

    private static String between(String s, String open, String close) {
        int a = s.indexOf(open);
        int b = a < 0 ? -1 : s.indexOf(close, a);
        return b < 0 ? null : s.substring(a + open.length(), b);
    }

    String getSmall() {
        return "GET /" + BUCKET + "/small HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n";
    }

    private String getLarge() {
        return "GET /" + BUCKET + "/large HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n";
    }

    HttpConn connect(int receiveBuffer) throws IOException {
        return new HttpConn(host, port, receiveBuffer);
    }

    static Thread thread(String name, Runnable body) {
        Thread t = new Thread(null, body, name, STACK_BYTES);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void sleepSeconds(int seconds) throws InterruptedException {
        TimeUnit.SECONDS.sleep(seconds);
    }

    /** A few connections doing GETs of "small" for as long as a phase lasts: its rate and p99. */
    static final class Probe {
        private final List<Thread> threads = new ArrayList<>();
        private final ConcurrentLinkedQueue<long[]> latencies = new ConcurrentLinkedQueue<>();
        private final AtomicLong failed = new AtomicLong();
        private volatile boolean stop;
        private long start;

        static Probe start(MemoryLoad load) {
            Probe p = new Probe();
            p.start = System.nanoTime();
            for (int i = 0; i < PROBES; i++) {
                p.threads.add(thread("probe-" + i, () -> p.run(load)));
            }
            return p;
        }

        private void run(MemoryLoad load) {
            long[] mine = new long[1 << 20];
            int n = 0;
            while (!stop) {
                try (HttpConn c = load.connect(0)) {
                    while (!stop && n < mine.length) {
                        long t0 = System.nanoTime();
                        if (c.exchange(load.getSmall(), 0, null).status() == 200) {
                            mine[n++] = System.nanoTime() - t0;
                        } else {
                            failed.incrementAndGet();
                        }
                    }
                } catch (IOException e) {
                    failed.incrementAndGet();
                }
                if (n == mine.length) {
                    break;
                }
            }
            latencies.add(java.util.Arrays.copyOf(mine, n));
        }

        String stop() throws InterruptedException {
            stop = true;
            double secs = (System.nanoTime() - start) / 1e9;
            for (Thread t : threads) {
                // A probe waits for its last answer at most the connection's read timeout.
                t.join();
            }
            long[] all = latencies.stream().flatMapToLong(java.util.Arrays::stream).sorted().toArray();
            double p99 = all.length == 0 ? Double.NaN : all[(int) Math.min(all.length - 1, Math.ceil(all.length * 0.99) - 1)] / 1e6;
            return String.format("probe_gets_per_s=%.0f probe_p99_ms=%.1f probe_failed=%d", all.length / secs, p99,
                    failed.get());
        }
    }
}
