package dev.cairn.loadtest;

import dev.cairn.loadtest.bench.CacheBenchCommand;
import dev.cairn.loadtest.bench.CatalogueBenchCommand;
import dev.cairn.loadtest.bench.EngineBenchCommand;
import dev.cairn.loadtest.bench.ScaleBenchCommand;
import dev.cairn.loadtest.version.ManifestVersion;
import picocli.CommandLine.Command;

/** {@code bench}: groups the benchmarks; run one of its subcommands. Thread-safety: stateless. */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = ManifestVersion.class,
        description = "Benchmarks. Each prints a readable table and, last, one JSON line.",
        subcommands = {EngineBenchCommand.class, ScaleBenchCommand.class, CacheBenchCommand.class,
            CatalogueBenchCommand.class})
final class BenchCommand {
}
