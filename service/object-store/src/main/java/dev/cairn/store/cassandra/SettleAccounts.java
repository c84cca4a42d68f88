package dev.cairn.store.cassandra;

import java.util.Locale;

/** The settling's counters, gathered from the pool, the rows and the content: totals for metrics, differences for a benchmark. */
final class SettleAccounts {
    private final Settler settler;
    private final CassandraObjects objects;
    private final CassandraContent content;
    private SettleStats taken = new SettleStats(0, 0, 0, 0, 0, 0, 0, 0);
    private long goneTaken;

    SettleAccounts(Settler settler, CassandraObjects objects, CassandraContent content) {
        this.settler = settler;
        this.objects = objects;
        this.content = content;
    }

    SettleStats totals() {
        Settler.Stats s = settler.totals();
        return new SettleStats(s.maxPending(), s.settled(), s.selfSettled(), s.coalesced(),
                objects.settlesOvertaken.sum(), content.referencesDropped.sum(), content.reclaimed.sum(), s.nanos());
    }

    /**
     * The settling since the last call, one line: settles run, run by the writer (queue full),
     * writes that joined a queued settle of their key, deepest backlog, mean settle time, settles
     * that found a later write, references dropped, of which gone already, content reclaimed.
     */
    synchronized String takeLine() {
        Settler.Stats s = settler.takeStats();
        SettleStats now = totals();
        long gone = content.referencesGoneAlready.sum();
        String line = String.format(Locale.ROOT,
                "settles %d self-settled %d coalesced %d max-backlog %d mean-settle-ms %.1f overtaken %d refs-dropped %d"
                        + " gone-already %d reclaimed %d",
                s.settled(), s.selfSettled(), s.coalesced(), s.maxPending(),
                s.settled() == 0 ? 0.0 : s.nanos() / 1e6 / s.settled(),
                now.overtaken() - taken.overtaken(), now.referencesDropped() - taken.referencesDropped(), gone - goneTaken,
                now.reclaimed() - taken.reclaimed());
        taken = now;
        goneTaken = gone;
        return line;
    }
}
