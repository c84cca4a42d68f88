package dev.cairn.backup;

import dev.cairn.backup.cli.DumpCommand;
import dev.cairn.backup.cli.ExitCode;
import dev.cairn.backup.cli.JobEnvironment;
import dev.cairn.backup.cli.ListCommand;
import dev.cairn.backup.cli.PruneCommand;
import dev.cairn.backup.cli.RestoreCommand;
import dev.cairn.backup.cli.RunCommand;
import dev.cairn.backup.cli.ScheduleCommand;
import dev.cairn.backup.cli.SourceFactory;
import dev.cairn.backup.cli.VerifyCommand;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.store.embedded.ScanPriority;
import java.io.IOException;
import dev.cairn.backup.time.JobClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/cairn backup …}: the backup job's command line. */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = "Backups of a Cairn store into a directory or an S3 bucket: run, schedule, restore, verify, list, prune, dump.",
        subcommands = {RunCommand.class, ScheduleCommand.class, RestoreCommand.class, VerifyCommand.class,
                ListCommand.class, PruneCommand.class, DumpCommand.class})
public final class Main implements Runnable, JobEnvironment {
    private final SourceFactory sources;
    private final JobClock clock;

    public Main(SourceFactory sources, JobClock clock) {
        this.sources = sources;
        this.clock = clock;
    }

    @Override
    public SourceFactory sources() {
        return sources;
    }

    @Override
    public JobClock clock() {
        return clock;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    /** The command line with this source factory; errors printed as one clear line. */
    public static CommandLine commandLine(SourceFactory sources) {
        return commandLine(sources, JobClock.SYSTEM);
    }

    /** The command line with this source factory and clock. */
    public static CommandLine commandLine(SourceFactory sources, JobClock clock) {
        CommandLine cl = new CommandLine(new Main(sources, clock));
        cl.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            commandLine.getErr().println("cairn backup: error: " + ExitCode.message(e));
            return e instanceof IllegalArgumentException ? ExitCode.USAGE : ExitCode.FAILED;
        });
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine(Main::openInJobProcess).execute(args));
    }

    /**
     * The job's own process shares the service's host when it reads an embedded checkpoint with
     * idle priority: then all of it — every thread, the JVM's compiler and collector threads too,
     * and the threads made later — runs in the idle classes, not only its reading threads. Only
     * here, in the process's entry point: a test that runs the commands in its own JVM must not
     * idle that JVM.
     */
    private static BackupSource openInJobProcess(SourceOptions options) throws IOException {
        if (options.kind == SourceOptions.Kind.embedded && !options.throughCaches) {
            ScanPriority.IDLE.applyToWholeProcess();
        }
        return BackupSources.open(options);
    }
}
