package dev.cairn.loadtest;

import dev.cairn.loadtest.bench.EngineBenchCommand;
import picocli.CommandLine.Command;

/** {@code bench}: groups the benchmarks; run one of its subcommands. Thread-safety: stateless. */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Benchmarks. Each prints a readable table and, last, one JSON line.",
        subcommands = EngineBenchCommand.class)
final class BenchCommand {
}
