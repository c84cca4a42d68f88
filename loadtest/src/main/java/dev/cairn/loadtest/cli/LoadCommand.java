package dev.cairn.loadtest.cli;

import dev.cairn.loadtest.dataset.Dataset;
import dev.cairn.loadtest.dataset.DatasetSpec;
import dev.cairn.loadtest.dataset.KeyRegistry;
import dev.cairn.loadtest.dataset.Loader;
import dev.cairn.loadtest.targets.S3Target;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loadtest load}: writes a dataset and registers its keys. Thread-safety: one per invocation. */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = "Write N image-like objects to an S3 endpoint and/or a directory, and register every key in Redis.")
public final class LoadCommand implements Callable<Integer> {

    /** The default object count. */
    public static final long DEFAULT_COUNT = 10_000;
    /** The default dataset seed. */
    public static final long DEFAULT_SEED = 1;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    DatasetOptions dataset;

    @ArgGroup(exclusive = false, heading = "Target:%n")
    TargetOptions target = new TargetOptions();

    @Option(names = "--to-directory", description = "Also (or only) write the objects as files under this directory.")
    Path directory;

    @Option(names = "--public-read", description = "Make the bucket public-read, so plain HTTP GETs can read it.")
    boolean publicRead;

    @Option(names = "--count", defaultValue = "" + DEFAULT_COUNT, description = "Objects to write (default: ${DEFAULT-VALUE}).")
    long count;

    @Option(names = "--seed", defaultValue = "" + DEFAULT_SEED, description = "Dataset seed: keys and content (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--threads", defaultValue = "8", description = "Writer threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--size-median", defaultValue = "20KiB", converter = Units.BytesConverter.class,
            description = "Median object size (default: ${DEFAULT-VALUE}).")
    int sizeMedian;

    @Option(names = "--size-p90", defaultValue = "50KiB", converter = Units.BytesConverter.class,
            description = "90th percentile of object sizes (default: ${DEFAULT-VALUE}; the classified-ads portal's images: 90% under 50 KB).")
    int sizeP90;

    @Option(names = "--size-min", defaultValue = "1KiB", converter = Units.BytesConverter.class,
            description = "Smallest object (default: ${DEFAULT-VALUE}).")
    int sizeMin;

    @Option(names = "--size-max", defaultValue = "1MiB", converter = Units.BytesConverter.class,
            description = "Largest object (default: ${DEFAULT-VALUE}).")
    int sizeMax;

    @Option(names = "--object-size", converter = Units.BytesConverter.class,
            description = "Every object this size instead of the image-like distribution (e.g. 20KiB).")
    Integer objectSize;

    @Option(names = "--duplicate-fraction", defaultValue = "0",
            description = "Fraction of objects whose content repeats an earlier object's (default: ${DEFAULT-VALUE}).")
    double duplicateFraction;

    @Override
    public Integer call() throws IOException, InterruptedException {
        DatasetSpec ds = new DatasetSpec(dataset.dataset, seed, count, sizeMedian, sizeP90, sizeMin, sizeMax,
                objectSize == null ? 0 : objectSize, duplicateFraction);
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        try (KeyRegistry registry = KeyRegistry.connect(dataset.redis);
             S3Target s3 = target.endpoint == null ? null : target.s3Target(threads + 2)) {
            if (target.http != null) {
                throw new IllegalArgumentException("load writes through S3 (--endpoint) or to files (--to-directory), not --http");
            }
            if (s3 != null) {
                s3.ensureBucket(publicRead);
            }
            Loader.Summary summary = new Loader(new Dataset(ds), s3, directory, registry, threads, err).load();
            out.println(summary.describe());
            out.println("dataset '" + ds.name() + "' registered in Redis at " + registry.address()
                    + (s3 != null ? "; objects in " + s3.describe() : "") + (directory != null ? "; files under " + directory : ""));
            out.flush();
            if (!summary.errors().isEmpty()) {
                throw new IOException("some objects were not written: " + summary.errors()
                        + "; the dataset is left incomplete (its count stays 0)");
            }
            return 0;
        } catch (dev.cairn.loadtest.targets.TargetException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
