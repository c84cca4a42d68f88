package dev.cairn.backup.cli;

import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.restore.RestoreStateDirs;
import dev.cairn.backup.restore.SkippedObject;
import dev.cairn.backup.target.Target;
import dev.cairn.backup.target.TargetOptions;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code backup restore}: a backup into a store or an S3 endpoint. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = "Restore a backup (the newest by default) into an embedded store directory, a Cassandra keyspace "
                + "or an S3 endpoint. Resumes an interrupted restore of the same backup into the same destination.")
public final class RestoreCommand implements Callable<Integer> {
    @ParentCommand
    JobEnvironment environment;

    @Mixin
    TargetOptions target;

    @Mixin
    DestinationOptions destination;

    @Option(names = "--backup", description = "the backup id (default: the newest complete backup)")
    String backupId;

    @Option(names = "--bucket", description = "restore only this bucket (repeatable; default: every bucket)")
    List<String> buckets = List.of();

    @Option(names = "--prefix", defaultValue = "", description = "restore only keys starting with this (default: every key)")
    String prefix;

    @Option(names = "--allow-non-empty", description = "restore into buckets that already hold objects")
    boolean allowNonEmpty;

    @Option(names = "--threads", defaultValue = "" + Restore.DEFAULT_THREADS,
            description = "objects written at once (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--state-dir", description = "where the restore records its progress to resume from (default: " + RestoreStateDirs.BESIDE_STORE
            + " for --into embedded:DIR, else " + RestoreStateDirs.IN_HOME + "); never the archive, which a restore only reads")
    Path stateDir;

    @Option(names = "--skip-damaged", description = "restore every object whose content can be read, list those whose"
            + " blob is missing or damaged in the archive, and exit with " + ExitCode.DAMAGED + " (default: the first such"
            + " object stops the restore)")
    boolean skipDamaged;

    @Override
    public Integer call() throws Exception {
        try (Target archive = target.openForReading()) {
            Catalog.Backup backup = Catalog.find(archive, backupId);
            try (RestoreDestination dest = destination.open();
                 Progress progress = Progress.onStderr("restore", backup.trailer().objects())) {
                System.err.println("restoring backup " + backup.id() + " from " + archive.describe() + " into " + dest.describe());
                Restore restore = new Restore(archive, backup.id(), dest, new HashSet<>(buckets), prefix, allowNonEmpty,
                        threads, System.err, stateDir != null ? stateDir : destination.defaultStateDir());
                restore.clock(environment.clock());
                Restore.Result r = (skipDamaged ? restore.skipDamaged() : restore).run(progress);
                for (String warning : dest.warnings()) {
                    System.err.println("warning: " + warning);
                }
                if (!r.alreadyDone()) {
                    System.err.printf("restore complete: %,d objects, %s in %.1f s (%.1f MB/s)%n",
                            r.objects() - r.skipped().size(), Progress.human(r.bytes()), r.seconds(),
                            r.seconds() > 0 ? r.bytes() / r.seconds() / 1e6 : 0);
                }
                if (!r.skipped().isEmpty()) {
                    System.err.println("skipped " + r.skipped().size()
                            + " object(s) whose content is damaged in the archive:");
                    for (SkippedObject s : r.skipped()) {
                        System.err.println("  " + s);
                    }
                    return ExitCode.DAMAGED;
                }
            }
        }
        return ExitCode.OK;
    }
}
