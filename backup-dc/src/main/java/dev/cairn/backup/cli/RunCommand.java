package dev.cairn.backup.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code backup run}: one backup now; resumes the unfinished run of the same source if there is one. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Back up the source into the target now. An unfinished run of the same source is resumed. "
                + "Exit 0 when the manifest was written, 1 on failure, 3 when another run holds the archive's lock.")
public final class RunCommand implements Callable<Integer> {
    @ParentCommand
    JobEnvironment environment;

    @Mixin
    RunOptions options;

    @Override
    public Integer call() {
        return BackupJob.runOnce(environment, options, System.err);
    }
}
