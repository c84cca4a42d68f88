package dev.cairn.loadtest;

import dev.cairn.loadtest.cli.LoadtestCommand;
import dev.cairn.loadtest.dataset.KeyRegistry;
import dev.cairn.loadtest.version.ManifestVersion;
import java.io.IOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command-line tools behind {@code bin/cairn bench ...}, {@code bin/cairn loadtest ...} and
 * {@code bin/cairn dump ...}.
 * Exit status: 0 on success, 1 when a command fails, 2 on bad usage.
 *
 * <p>Thread-safety: each {@link #commandLine()} is a fresh command tree for one caller.
 */
@Command(name = "cairn", mixinStandardHelpOptions = true, versionProvider = ManifestVersion.class,
        description = "Cairn's tools: benchmarks, the load generator and the file dumper.",
        subcommands = {BenchCommand.class, DumpCommand.class, LoadtestCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command tree, for callers (and tests) that want to run it in-process. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Main());
        commandLine.setExecutionExceptionHandler((e, cl, parseResult) -> {
            if (e instanceof IOException || e instanceof UnsupportedOperationException
                    || e instanceof IllegalArgumentException || e instanceof IllegalStateException
                    || e instanceof KeyRegistry.RegistryUnavailableException) {
                cl.getErr().println("cairn " + cl.getCommandName() + ": " + e.getMessage());
                cl.getErr().flush();
                return cl.getCommandSpec().exitCodeOnExecutionException();
            }
            throw e;
        });
        return commandLine;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }
}
