package dev.cairn.loadtest.cli;

import picocli.CommandLine.Command;

/** {@code loadtest}: groups load, run, report and compare. Thread-safety: stateless. */
@Command(name = "loadtest", mixinStandardHelpOptions = true,
        description = "YCSB-style load generator for any S3 endpoint or web server: load a dataset, run workloads, report.",
        subcommands = {LoadCommand.class, RunCommand.class, ReportCommand.class, CompareCommand.class})
public final class LoadtestCommand {
}
