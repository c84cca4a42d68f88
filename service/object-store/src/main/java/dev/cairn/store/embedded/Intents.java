package dev.cairn.store.embedded;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
import dev.cairn.store.Hex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded store's journal of work that spans more than one engine write: content whose
 * chunks are being written before its size row makes it reachable, and references counted
 * before (or still counted after) the row that holds them. Each intent is a row of table
 * {@code intents}, written before the work starts or in the batch that starts it, and deleted
 * in the batch that completes it; layout in docs/object-stores.md ("Embedded layout").
 *
 * <p>An intent whose token is not live in this process belongs to a writer that died (a crash,
 * or a failure while undoing its work): a sweep undoes it. A token is made live before its row
 * is written and stops being live only after its row is deleted, so a sweep that sees a row,
 * then finds its token not live, then still finds the row, has found a dead writer's intent.
 *
 * <p>Thread-safe.
 */
final class Intents {
    /** DO NOT CHANGE: embedded in on-disk data. Content whose chunks are being written. */
    static final byte CONTENT = 'c';
    private static final int FORMAT_VERSION = 1;
    private static final int TOKEN_BYTES = 16;
    private static final int SHA_BYTES = 32;

    /** One intent: {@code kind} is {@link #CONTENT} (with {@code size}) or a reference kind (with {@code bucket}). */
    record Intent(byte[] token, byte kind, String sha256, long size, String bucket) {
    }

    private final Table table;
    private final SecureRandom random = new SecureRandom();
    private final Set<String> live = ConcurrentHashMap.newKeySet();

    Intents(Table table) {
        this.table = table;
    }

    /** A new token, live until {@link #end}. */
    byte[] begin() {
        byte[] token = new byte[TOKEN_BYTES];
        random.nextBytes(token);
        live.add(Hex.encode(token));
        return token;
    }

    /** The writer owning the token is done with it; call only after its row is deleted (or never written). */
    void end(byte[] token) {
        if (token != null) {
            live.remove(Hex.encode(token));
        }
    }

    boolean isLive(byte[] token) {
        return live.contains(Hex.encode(token));
    }

    void putContent(WriteBatch batch, byte[] token, String sha256, long size) {
        batch.put(table, token, encode(CONTENT, sha256, ByteBuffer.allocate(8).putLong(size).array()));
    }

    void putReference(WriteBatch batch, byte[] token, byte kind, String sha256, String bucket) {
        batch.put(table, token, encode(kind, sha256, bucket.getBytes(StandardCharsets.UTF_8)));
    }

    void delete(WriteBatch batch, byte[] token) {
        batch.delete(table, token);
    }

    boolean exists(byte[] token) throws IOException {
        return table.get(token) != null;
    }

    List<Intent> all() throws IOException {
        List<Intent> out = new ArrayList<>();
        try (EntryIterator it = table.scan(KeyRange.all())) {
            while (it.hasNext()) {
                Entry e = it.next();
                out.add(decode(e.key(), e.value()));
            }
        }
        return out;
    }

    private static byte[] encode(byte kind, String sha256, byte[] rest) {
        return ByteBuffer.allocate(2 + SHA_BYTES + rest.length).put((byte) FORMAT_VERSION).put(kind)
                .put(Hex.decode(sha256)).put(rest).array();
    }

    private static Intent decode(byte[] token, byte[] v) throws CorruptionException {
        String where = "intents/" + Hex.encode(token);
        if (token.length != TOKEN_BYTES || v.length < 2 + SHA_BYTES || v[0] != FORMAT_VERSION) {
            throw new CorruptionException(where + ": not an intent row");
        }
        byte kind = v[1];
        String sha = Hex.encode(java.util.Arrays.copyOfRange(v, 2, 2 + SHA_BYTES));
        int rest = 2 + SHA_BYTES;
        if (kind == CONTENT) {
            if (v.length != rest + 8) {
                throw new CorruptionException(where + ": content intent of " + v.length + " bytes");
            }
            return new Intent(token, kind, sha, ByteBuffer.wrap(v, rest, 8).getLong(), null);
        }
        return new Intent(token, kind, sha, 0, new String(v, rest, v.length - rest, StandardCharsets.UTF_8));
    }
}
