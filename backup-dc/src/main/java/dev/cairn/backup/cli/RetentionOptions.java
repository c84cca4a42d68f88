package dev.cairn.backup.cli;

import dev.cairn.backup.prune.Retention;
import picocli.CommandLine.Option;

/** Which backups prune keeps. Each default is written once, here: 0, keep none by that rule. */
public final class RetentionOptions {
    @Option(names = "--keep-last", defaultValue = "0", description = "keep the newest N backups (default: ${DEFAULT-VALUE})")
    public int keepLast;

    @Option(names = "--keep-daily", defaultValue = "0",
            description = "keep the newest backup of each of the last N days that have one, UTC (default: ${DEFAULT-VALUE})")
    public int keepDaily;

    @Option(names = "--keep-weekly", defaultValue = "0",
            description = "keep the newest backup of each of the last N ISO weeks that have one, UTC (default: ${DEFAULT-VALUE})")
    public int keepWeekly;

    public boolean any() {
        return keepLast > 0 || keepDaily > 0 || keepWeekly > 0;
    }

    public Retention retention() {
        return new Retention(keepLast, keepDaily, keepWeekly);
    }
}
