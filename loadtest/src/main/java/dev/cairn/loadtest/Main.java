package dev.cairn.loadtest;

import java.io.IOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command-line tools behind {@code bin/cairn bench ...} and {@code bin/cairn dump ...}.
 * Exit status: 0 on success, 1 when a command fails, 2 on bad usage.
 *
 * <p>Thread-safety: each {@link #commandLine()} is a fresh command tree for one caller.
 */
@Command(name = "cairn", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Cairn's tools: benchmarks and the file dumper.",
        subcommands = {BenchCommand.class, DumpCommand.class})
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
                    || e instanceof IllegalArgumentException) {
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

    /** The version from the jar's manifest (set by the build). */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"cairn " + (version == null ? "(development build)" : version)};
        }
    }
}
