package dev.cairn.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** An invalidation channel in this JVM: every publish reaches every connected node at once; a node may be cut off. */
final class LocalInvalidationChannel implements InvalidationPublisher {
    final List<RowCachingObjectStore> connected = new ArrayList<>();
    volatile boolean failing;

    @Override
    public synchronized void publish(String bucket, String key) throws IOException {
        if (failing) {
            throw new IOException("channel down");
        }
        for (RowCachingObjectStore n : connected) {
            n.invalidated(bucket, key);
        }
    }

    synchronized void cutOff(RowCachingObjectStore n) {
        connected.remove(n);
        n.channelLost();
    }

    synchronized void reconnect(RowCachingObjectStore n) {
        connected.add(n);
        n.channelResumed();
    }

    @Override
    public void close() {
    }
}
