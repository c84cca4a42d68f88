package dev.cairn.loadtest.cli;

import dev.cairn.loadtest.dataset.KeyRegistry;
import picocli.CommandLine.Option;

/** Which dataset, and where its key registry lives. Thread-safety: one per command. */
public final class DatasetOptions {

    /** The default dataset name. */
    public static final String DEFAULT_DATASET = "images";

    @Option(names = "--dataset", defaultValue = DEFAULT_DATASET,
            description = "Dataset name: the key registry's namespace (default: ${DEFAULT-VALUE}).")
    String dataset;

    @Option(names = "--redis", defaultValue = KeyRegistry.DEFAULT_ADDRESS,
            description = "Redis host:port holding the key registry (default: ${DEFAULT-VALUE}).")
    String redis;
}
