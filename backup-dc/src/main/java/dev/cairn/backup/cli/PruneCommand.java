package dev.cairn.backup.cli;

import dev.cairn.backup.prune.Pruner;
import dev.cairn.backup.run.Lease;
import dev.cairn.backup.target.Target;
import dev.cairn.backup.target.TargetOptions;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code backup prune}: retention, then unreferenced blobs. */
@Command(name = "prune", mixinStandardHelpOptions = true,
        description = "Delete the backups the --keep-* rules do not keep, then every blob no kept backup and no "
                + "unfinished run references. Holds the archive's lock: refuses while a backup runs (exit 3).")
public final class PruneCommand implements Callable<Integer> {
    @ParentCommand
    JobEnvironment environment;

    @Mixin
    TargetOptions target;

    @Mixin
    RetentionOptions retention;

    @Option(names = "--dry-run", description = "print what would be deleted, delete nothing")
    boolean dryRun;

    @Option(names = "--lease-seconds", defaultValue = Lease.DEFAULT_SECONDS,
            description = "the archive lock expires this long after its holder stopped renewing it (default: ${DEFAULT-VALUE})")
    int leaseSeconds;

    @Override
    public Integer call() throws Exception {
        try (Target t = target.open()) {
            Pruner.Result r = new Pruner(t, System.err, environment.clock()).prune(retention.retention(), dryRun, Duration.ofSeconds(leaseSeconds));
            System.out.println(r.summary());
            return ExitCode.OK;
        } catch (Lease.HeldException e) {
            System.err.println("cairn backup: " + e.getMessage() + "; prune refuses to run while it is held");
            return ExitCode.LOCKED;
        }
    }
}
