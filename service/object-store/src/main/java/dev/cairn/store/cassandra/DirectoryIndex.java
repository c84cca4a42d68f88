package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import dev.cairn.store.Listing;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.Utf8Order;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * The listing index: keys split at their last '/' into a directory and a name; each directory
 * spread over {@link CassandraSchema#DIRECTORY_SHARDS} partitions by a hash of the name, each
 * partition ordered by name. A directory also holds a marker per subdirectory (its name and a
 * trailing '/', no row). Since names hold no '/', every key below a marker sorts at the marker's
 * place, so a depth-first walk that merges the shards of each directory yields a bucket's keys
 * in UTF-8 order, from any start point, reading only the directories it passes through.
 *
 * <p>Markers are written before the object's entry and never removed: a directory whose keys
 * were all deleted costs a walk one empty read per shard, never a wrong answer.
 *
 * <p>Thread-safety: thread-safe (the cache of markers written is a concurrent set); cursors are
 * not.
 */
final class DirectoryIndex {
    private static final int PAGE_SIZE = 200;
    private static final int MAX_MARKER_CACHE = 100_000;
    private final CassandraTables tables;
    private final PreparedStatement insertMarker;
    private final PreparedStatement selectFrom;
    private final PreparedStatement selectAfter;
    private final boolean withRows;
    private final Set<String> markersWritten = ConcurrentHashMap.newKeySet();

    /** The index of current objects, table {@code directory}: each entry holds the object's row. */
    DirectoryIndex(CassandraTables tables) {
        this(tables, tables.q.insertMarker, tables.q.selectEntriesFrom, tables.q.selectEntriesAfter, true);
    }

    private DirectoryIndex(CassandraTables tables, PreparedStatement insertMarker, PreparedStatement selectFrom,
                           PreparedStatement selectAfter, boolean withRows) {
        this.tables = tables;
        this.withRows = withRows;
        this.insertMarker = insertMarker;
        this.selectFrom = selectFrom;
        this.selectAfter = selectAfter;
    }

    /**
     * The index of the keys that have rows in {@code versions}, table {@code version_directory}:
     * the same layout, entries without a row (docs/cassandra-internals.md, "Versioning").
     */
    static DirectoryIndex ofVersionKeys(CassandraTables tables) {
        return new DirectoryIndex(tables, tables.q.insertVersionKey, tables.q.selectVersionKeysFrom,
                tables.q.selectVersionKeysAfter, false);
    }

    /** A key listed, and the row its entry holds (null in the index of version keys). */
    record Listed(String key, java.nio.ByteBuffer row) {
    }

    /** Listed keys in order. */
    interface KeyCursor extends Iterator<Listed>, AutoCloseable {
        @Override
        void close();
    }

    /** The listed keys from a start point, in UTF-8 order. */
    KeyCursor keys(String bucket, String target, Listing.From from) {
        return new Walk(bucket, target, from);
    }

    /** Where a key is listed: its directory (through the last '/'), shard and name. */
    record Entry(String dir, int shard, String name) {
    }

    static Entry entryOf(String key) {
        int slash = key.lastIndexOf('/');
        String dir = key.substring(0, slash + 1);
        String name = key.substring(slash + 1);
        return new Entry(dir, shardOf(name), name);
    }

    /** DO NOT CHANGE: embedded in stored data. String.hashCode is fixed by the Java language. */
    static int shardOf(String name) {
        int h = name.hashCode();
        return Math.floorMod(h ^ (h >>> 16), CassandraSchema.DIRECTORY_SHARDS);
    }

    /** Starts writing the markers of every directory above the key (cached once written): join them before the entry is written. */
    List<CompletableFuture<AsyncResultSet>> writeMarkersAsync(String bucket, String key) {
        List<CompletableFuture<AsyncResultSet>> inserts = new ArrayList<>();
        int from = 0;
        for (int slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
            String parent = key.substring(0, from);
            String name = key.substring(from, slash + 1);
            if (!markerWritten(bucket.length() + ":" + bucket + key.substring(0, slash + 1))) {
                inserts.add(tables.async(tables.write(insertMarker.bind(bucket, parent, shardOf(name), name))));
            }
            from = slash + 1;
        }
        return inserts;
    }

    private boolean markerWritten(String marker) {
        if (markersWritten.size() > MAX_MARKER_CACHE) {
            markersWritten.clear();
        }
        return !markersWritten.add(marker);
    }

    /** The bucket's keys in order; listing stops at the first key without the prefix. */
    Listing.Seeker seeker(String bucket, String prefix) {
        return (target, from) -> new ObjectCursor(new Walk(bucket, target, from));
    }

    /** The objects of a walk of {@code directory}. */
    private record ObjectCursor(Walk walk) implements Listing.Cursor {
        @Override
        public boolean hasNext() {
            return walk.hasNext();
        }

        @Override
        public ObjectInfo next() {
            Listed l = walk.next();
            return RowFormat.decodeObject(l.key(), l.row()).value();
        }

        @Override
        public void close() {
            walk.close();
        }
    }

    /** The smallest string greater than every string that starts with {@code s}; null if none. */
    static String successor(String s) {
        int[] cps = s.codePoints().toArray();
        for (int i = cps.length - 1; i >= 0; i--) {
            int c = cps[i] + 1;
            if (c == Character.MIN_SURROGATE) {
                c = Character.MAX_SURROGATE + 1;
            }
            if (c <= Character.MAX_CODE_POINT) {
                return new String(cps, 0, i) + Character.toString(c);
            }
        }
        return null;
    }

    /** A depth-first walk over directories; the innermost directory on top of the stack. */
    private final class Walk implements KeyCursor {
        private final String bucket;
        private final Deque<Level> stack = new ArrayDeque<>();
        private Listed next;

        Walk(String bucket, String target, Listing.From from) {
            this.bucket = bucket;
            List<Level> path = new ArrayList<>();
            String dir = "";
            for (int slash = target.indexOf('/'); slash >= 0; slash = target.indexOf('/', slash + 1)) {
                String marker = target.substring(dir.length(), slash + 1);
                path.add(new Level(dir, marker, false));
                dir = target.substring(0, slash + 1);
            }
            String rest = target.substring(dir.length());
            switch (from) {
                case AT -> path.add(new Level(dir, rest, true));
                case AFTER -> path.add(new Level(dir, rest, false));
                case PAST_PREFIX -> {
                    String past = rest.isEmpty() ? null : successor(rest);
                    if (past != null) {
                        path.add(new Level(dir, past, true));
                    }
                }
            }
            for (Level l : path) {
                stack.push(l);
            }
        }

        @Override
        public boolean hasNext() {
            while (next == null && !stack.isEmpty()) {
                Level top = stack.peek();
                Row r = top.next();
                if (r == null) {
                    stack.pop();
                    continue;
                }
                String name = r.getString("name");
                if (name.endsWith("/")) {
                    stack.push(new Level(top.dir + name, "", true));
                } else {
                    next = new Listed(top.dir + name, withRows ? r.getByteBuffer("row") : null);
                }
            }
            return next != null;
        }

        @Override
        public Listed next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Listed o = next;
            next = null;
            return o;
        }

        @Override
        public void close() {
            stack.clear();
        }

        /** One directory from a start name: its shards merged in name order. */
        private final class Level {
            final String dir;
            private final PriorityQueue<Shard> heads = new PriorityQueue<>(
                    (a, b) -> Utf8Order.compare(a.head.getString("name"), b.head.getString("name")));

            private final String start;
            private final boolean inclusive;
            private boolean started;

            Level(String dir, String start, boolean inclusive) {
                this.dir = dir;
                this.start = start;
                this.inclusive = inclusive;
            }

            /** Queries every shard at once, on first use: a level below may finish the page. */
            private void begin() {
                started = true;
                List<CompletableFuture<AsyncResultSet>> queries = new ArrayList<>();
                for (int shard = 0; shard < CassandraSchema.DIRECTORY_SHARDS; shard++) {
                    BoundStatement st = (inclusive ? selectFrom : selectAfter)
                            .bind(bucket, dir, shard, start).setPageSize(PAGE_SIZE);
                    queries.add(tables.session.executeAsync(tables.read(st)).toCompletableFuture());
                }
                for (CompletableFuture<AsyncResultSet> q : queries) {
                    Shard s = new Shard(CassandraTables.join(q));
                    if (s.advance()) {
                        heads.add(s);
                    }
                }
            }

            Row next() {
                if (!started) {
                    begin();
                }
                Shard s = heads.poll();
                if (s == null) {
                    return null;
                }
                Row r = s.head;
                if (s.advance()) {
                    heads.add(s);
                }
                return r;
            }
        }
    }

    /** One shard's rows, fetched a page at a time. */
    private static final class Shard {
        private AsyncResultSet page;
        private Iterator<Row> rows;
        Row head;

        Shard(AsyncResultSet first) {
            this.page = first;
            this.rows = first.currentPage().iterator();
        }

        boolean advance() {
            while (!rows.hasNext()) {
                if (!page.hasMorePages()) {
                    head = null;
                    return false;
                }
                page = CassandraTables.join(page.fetchNextPage().toCompletableFuture());
                rows = page.currentPage().iterator();
            }
            head = rows.next();
            return true;
        }
    }
}
