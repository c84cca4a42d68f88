package dev.cairn.backup.cli;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.run.Lease;
import dev.cairn.backup.target.Target;
import dev.cairn.backup.target.TargetOptions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code backup list}: the archive's backups and unfinished runs. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the backups of the target: id, parent, time, objects, bytes, and whether each is complete.")
public final class ListCommand implements Callable<Integer> {
    @ParentCommand
    JobEnvironment environment;

    @Mixin
    TargetOptions target;

    @Override
    public Integer call() throws Exception {
        try (Target t = target.openForReading()) {
            System.out.printf("%-22s %-22s %-20s %12s %14s %14s  %s%n", "ID", "PARENT", "FINISHED (UTC)", "OBJECTS",
                    "BYTES", "COPIED BYTES", "COMPLETE");
            for (Catalog.Backup b : Catalog.backups(t)) {
                if (b.readable()) {
                    System.out.printf("%-22s %-22s %-20s %,12d %,14d %,14d  %s%n", b.id(),
                            b.header().parentId() == null ? "-" : b.header().parentId(),
                            time(b.header().finishedMillis()), b.trailer().objects(), b.trailer().logicalBytes(),
                            b.trailer().copiedBytes(), "yes");
                } else {
                    System.out.printf("%-22s %-22s %-20s %12s %14s %14s  %s%n", b.id(), "?", "?", "?", "?", "?",
                            "no: " + b.problem());
                }
            }
            List<String> runs = Catalog.runs(t);
            Lease.Record lock = Lease.live(t, ArchiveLayout.WRITER_LOCK, environment.clock());
            for (String id : runs) {
                if (t.size(ArchiveLayout.manifest(id)) < 0) {
                    System.out.printf("%-22s %-22s %-20s %12s %14s %14s  %s%n", id, "", "", "", "", "",
                            lock != null ? "no: running (" + lock.owner() + ")" : "no: interrupted, the next run resumes it");
                }
            }
            return 0;
        }
    }

    static String time(long millis) {
        return Instant.ofEpochMilli(millis).toString().replace('T', ' ').replaceAll("\\.\\d+Z$", "").replace("Z", "");
    }
}
