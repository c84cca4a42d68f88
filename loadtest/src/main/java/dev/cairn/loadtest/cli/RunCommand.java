package dev.cairn.loadtest.cli;

import dev.cairn.loadtest.dataset.Dataset;
import dev.cairn.loadtest.dataset.DatasetSpec;
import dev.cairn.loadtest.dataset.KeyRegistry;
import dev.cairn.loadtest.generator.HotspotChooser;
import dev.cairn.loadtest.generator.KeyDistribution;
import dev.cairn.loadtest.report.HtmlReport;
import dev.cairn.loadtest.report.ResultFiles;
import dev.cairn.loadtest.report.SummaryTable;
import dev.cairn.loadtest.run.RunConfig;
import dev.cairn.loadtest.run.RunResult;
import dev.cairn.loadtest.run.Runner;
import dev.cairn.loadtest.targets.DirectoryTraversal;
import dev.cairn.loadtest.targets.S3Target;
import dev.cairn.loadtest.targets.Target;
import dev.cairn.loadtest.targets.TraversalSource;
import dev.cairn.loadtest.workload.Operation;
import dev.cairn.loadtest.workload.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loadtest run}: one workload against one target. Thread-safety: one per invocation. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a workload against an S3 endpoint or a web server, bounded by an operation count and a time.")
public final class RunCommand implements Callable<Integer> {

    /** The default bound on operations. */
    public static final long DEFAULT_OPS = 1_000_000;
    /** The default result file. */
    public static final String DEFAULT_OUT = "loadtest-result.json";

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    DatasetOptions dataset;

    @ArgGroup(exclusive = false, heading = "Target:%n")
    TargetOptions target = new TargetOptions();

    @Option(names = {"-w", "--workload"}, defaultValue = "c",
            description = "a, b, c, d, e, f (YCSB), write-only, write-heavy, read-heavy, read-only, mixed (default: ${DEFAULT-VALUE}).")
    String workloadName;

    @Option(names = "--distribution", description = "Key distribution: zipfian, latest, uniform, hotspot (default: the workload's).")
    String distribution;

    @Option(names = "--read-proportion", description = "Override the mix (unset operations get 0; the mix must add up to 1).")
    Double read;

    @Option(names = "--update-proportion")
    Double update;

    @Option(names = "--insert-proportion")
    Double insert;

    @Option(names = "--scan-proportion")
    Double scan;

    @Option(names = "--rmw-proportion")
    Double rmw;

    @Option(names = "--copy-proportion", description = "CopyObject to a scratch key (S3 targets).")
    Double copy;

    @Option(names = "--delete-proportion", description = "DELETE of a scratch key (S3 targets).")
    Double delete;

    @Option(names = "--multipart-proportion", description = "One-part multipart upload to a scratch key (S3 targets).")
    Double multipart;

    @Option(names = "--max-scan-length", defaultValue = "" + Workload.DEFAULT_MAX_SCAN_LENGTH,
            description = "Scans list 1 to this many keys (default: ${DEFAULT-VALUE}).")
    int maxScanLength;

    @Option(names = "--hot-set", defaultValue = "" + HotspotChooser.DEFAULT_HOT_SET,
            description = "hotspot: fraction of keys that are hot (default: ${DEFAULT-VALUE}).")
    double hotSet;

    @Option(names = "--hot-operations", defaultValue = "" + HotspotChooser.DEFAULT_HOT_OPERATIONS,
            description = "hotspot: fraction of operations on hot keys (default: ${DEFAULT-VALUE}).")
    double hotOperations;

    @Option(names = {"-t", "--threads"}, defaultValue = "16", description = "Client threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--rate", defaultValue = "0",
            description = "Open loop at this many operations/s, latency from each one's due time; 0 = closed loop (default).")
    double rate;

    @Option(names = "--ops", defaultValue = "" + DEFAULT_OPS, description = "Stop after this many operations (default: ${DEFAULT-VALUE}).")
    long ops;

    @Option(names = {"-d", "--duration"}, defaultValue = "60s", converter = Units.DurationConverter.class,
            description = "Stop after this long (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--seed", defaultValue = "42", description = "Run seed: thread i draws from seed + i (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--warmup", defaultValue = "0s", converter = Units.DurationConverter.class,
            description = "Run the workload this long first, unrecorded (default: ${DEFAULT-VALUE}): a fresh client"
                    + " compiles and connects in its first seconds, which an open loop reports as latency.")
    Duration warmup;

    @Option(names = "--interval", defaultValue = "1s", converter = Units.DurationConverter.class,
            description = "Sampling interval of the timeline and progress (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--traversal", description = "Run a backup-like traversal (list everything, read everything) alongside.")
    boolean traversal;

    @Option(names = "--traversal-endpoint", description = "S3 endpoint the traversal reads (default: --endpoint).")
    URI traversalEndpoint;

    @Option(names = "--traversal-bucket", description = "Bucket the traversal reads (default: --bucket).")
    String traversalBucket;

    @Option(names = "--traversal-directory", description = "Traverse this directory instead (a file-level backup).")
    Path traversalDirectory;

    @Option(names = "--traversal-delay", defaultValue = "10s", converter = Units.DurationConverter.class,
            description = "When the traversal starts (default: ${DEFAULT-VALUE} after the run).")
    Duration traversalDelay;

    @Option(names = "--traversal-threads", defaultValue = "2", description = "Traversal reader threads (default: ${DEFAULT-VALUE}).")
    int traversalThreads;

    @Option(names = {"-o", "--out"}, defaultValue = DEFAULT_OUT, description = "Result file (JSON; default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--html", description = "Also write the HTML report here.")
    Path html;

    @Option(names = "--label", description = "Name of this run in reports (default: workload and target kind).")
    String label;

    @Option(names = "--no-verify", description = "Do not check the content of reads.")
    boolean noVerify;

    @Option(names = {"-q", "--quiet"}, description = "No progress line.")
    boolean quiet;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter stdout = spec.commandLine().getOut();
        Workload workload = workload();
        String runLabel = label != null ? label : workload.name() + "-" + (target.http != null ? "http" : "s3");
        RunConfig config = new RunConfig(workload, threads, rate, ops, duration, seed, interval, hotSet, hotOperations,
                !noVerify, traversal, traversalDelay, traversalThreads, runLabel, warmup);
        try (KeyRegistry registry = KeyRegistry.connect(dataset.redis)) {
            DatasetSpec ds = registry.spec(dataset.dataset);
            if (ds.count() == 0) {
                throw new IllegalArgumentException("dataset '" + ds.name() + "' is incomplete (its load failed or is running)");
            }
            String[] keys = registry.keys(ds.name(), ds.count());
            boolean verify = !noVerify && !registry.overwritten(ds.name());
            RunResult result;
            try (Target t = target.target(threads + 2); TraversalSource source = traversalSource()) {
                result = new Runner(config, t, new Dataset(ds), keys, source, quiet ? null : spec.commandLine().getErr(), verify).run();
            }
            afterRun(registry, ds, workload, result);
            ResultFiles.write(result.json(), out);
            stdout.print(SummaryTable.format(result.json()));
            stdout.println("result: " + out);
            if (html != null) {
                Files.writeString(html, HtmlReport.render(List.of(result.json()), List.of(runLabel)), StandardCharsets.UTF_8);
                stdout.println("report: " + html);
            }
            stdout.flush();
            return 0;
        }
    }

    private void afterRun(KeyRegistry registry, DatasetSpec ds, Workload workload, RunResult result) {
        List<Long> inserted = new ArrayList<>(result.insertedIndices());
        inserted.sort(null);
        Dataset d = new Dataset(ds);
        for (Long index : inserted) {
            registry.register(ds.name(), index, List.of(d.key(index)));
        }
        if (!inserted.isEmpty() && registry.registeredKeys(ds.name()) >= result.keyCount()) {
            registry.setCount(ds.name(), result.keyCount());
        }
        if (!workload.readsVerifiable()) {
            registry.markOverwritten(ds.name());
        }
    }

    private Workload workload() {
        Workload w = Workload.preset(workloadName);
        if (read != null || update != null || insert != null || scan != null || rmw != null
                || copy != null || delete != null || multipart != null) {
            Map<Operation, Double> mix = new EnumMap<>(Operation.class);
            mix.put(Operation.READ, read == null ? 0 : read);
            mix.put(Operation.UPDATE, update == null ? 0 : update);
            mix.put(Operation.INSERT, insert == null ? 0 : insert);
            mix.put(Operation.SCAN, scan == null ? 0 : scan);
            mix.put(Operation.READ_MODIFY_WRITE, rmw == null ? 0 : rmw);
            mix.put(Operation.COPY, copy == null ? 0 : copy);
            mix.put(Operation.DELETE, delete == null ? 0 : delete);
            mix.put(Operation.MULTIPART, multipart == null ? 0 : multipart);
            w = w.withProportions(mix);
        }
        if (distribution != null) {
            w = w.withDistribution(KeyDistribution.parse(distribution));
        }
        return new Workload(w.name(), w.proportions(), w.distribution(), maxScanLength);
    }

    private TraversalSource traversalSource() {
        if (!traversal) {
            return null;
        }
        if (traversalDirectory != null) {
            if (traversalEndpoint != null) {
                throw new IllegalArgumentException("give --traversal-endpoint or --traversal-directory, not both");
            }
            return new DirectoryTraversal(traversalDirectory);
        }
        URI at = traversalEndpoint != null ? traversalEndpoint : target.endpoint;
        if (at == null) {
            throw new IllegalArgumentException("--traversal needs an S3 endpoint (--endpoint or --traversal-endpoint)"
                    + " or --traversal-directory");
        }
        String bucket = traversalBucket != null ? traversalBucket : target.bucket;
        return TraversalSource.of(new S3Target(target.s3(at, bucket), traversalThreads + 2, target.timeoutMillis()));
    }
}
