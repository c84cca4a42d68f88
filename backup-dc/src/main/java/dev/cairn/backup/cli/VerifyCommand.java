package dev.cairn.backup.cli;

import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.target.Target;
import dev.cairn.backup.target.TargetOptions;
import dev.cairn.backup.time.JobClock;
import dev.cairn.backup.verify.Verifier;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code backup verify}: checks manifests and blobs; exit 1 on any problem. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Check the archive: every manifest entry resolves to a blob of the right size, every blob "
                + "re-hashes to its name; --restore-drill also restores a backup into a scratch store and compares "
                + "every object. Exit 0 when no problem was found, 1 otherwise.")
public final class VerifyCommand implements Callable<Integer> {
    @ParentCommand
    JobEnvironment environment;

    @Mixin
    TargetOptions target;

    @Option(names = "--backup", description = "check only this backup's manifest, and drill it (default: every "
            + "manifest; the drill restores the newest)")
    String backupId;

    @Option(names = "--restore-drill", description = "restore the backup into a scratch embedded store in a "
            + "temporary directory and compare every object by SHA-256 and metadata")
    boolean restoreDrill;

    @Option(names = "--delete-corrupt", description = "delete blobs whose content does not match their name, so that "
            + "the next backup copies them again from the source")
    boolean deleteCorrupt;

    @Option(names = "--threads", defaultValue = "4", description = "blobs hashed at once (default: ${DEFAULT-VALUE})")
    int threads;

    @Override
    public Integer call() throws Exception {
        try (Target t = deleteCorrupt ? target.open() : target.openForReading()) {
            JobClock clock = environment.clock();
            long t0 = clock.nanos();
            Verifier v = new Verifier(t, System.err, threads);
            v.verifyManifests(backupId);
            v.verifyBlobs(deleteCorrupt);
            double s = (clock.nanos() - t0) / 1e9;
            System.err.printf("verify: %,d manifest rows resolved, %,d blobs (%,d bytes; %,d packs) re-hashed in %.1f s (%.1f MB/s)%n",
                    v.rowsChecked.get(), v.blobsChecked.get(), v.blobBytesChecked.get(), v.packsChecked.get(), s,
                    v.blobBytesChecked.get() / Math.max(s, 1e-3) / 1e6);
            if (restoreDrill) {
                v.restoreDrill(backupId == null ? Catalog.find(t, null).id() : backupId);
            }
            if (v.problems().isEmpty()) {
                System.out.println("verify: OK, no problem found");
                return ExitCode.OK;
            }
            System.out.println("verify: " + v.problems().size() + " problem(s):");
            v.problems().forEach(p -> System.out.println("  " + p));
            return ExitCode.FAILED;
        }
    }
}
