package dev.cairn.backup.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The device's sequential read rate as {@code dd} measures it: a 1 GiB file written once (synced),
 * then read with {@code iflag=direct} (around the page cache) in 4 MiB blocks each time
 * {@link #read()} is called. A virtual disk's rate moves from one read to the next, so the bench
 * reads it several times around the step it compares with it and uses the median.
 */
final class DeviceReadProbe implements AutoCloseable {
    private final Path file;

    private DeviceReadProbe(Path file) {
        this.file = file;
    }

    static DeviceReadProbe create(Path dir) throws IOException, InterruptedException {
        Path f = dir.resolve("dd-probe.bin");
        run("dd", "if=/dev/zero", "of=" + f, "bs=4M", "count=256", "conv=fsync");
        return new DeviceReadProbe(f);
    }

    /** One sequential read of the whole file with O_DIRECT; MB/s as dd reports it. */
    double read() throws IOException, InterruptedException {
        String report = run("dd", "if=" + file, "of=/dev/null", "bs=4M", "iflag=direct");
        Matcher m = Pattern.compile("(\\d+) bytes.*copied, ([0-9.,]+) s").matcher(report);
        if (!m.find()) {
            throw new IOException("cannot read dd's report: " + report);
        }
        return Long.parseLong(m.group(1)) / Double.parseDouble(m.group(2).replace(',', '.')) / 1e6;
    }

    static double median(double... values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + text);
        }
        return text;
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
    }
}
