package dev.cairn.store;

import java.io.Closeable;
import java.io.IOException;

/** Tells every node that an object was written, so that none serves its old cached row. */
public interface InvalidationPublisher extends Closeable {

    /** A publisher for a single node: nobody else to tell. */
    InvalidationPublisher NONE = new InvalidationPublisher() {
        @Override
        public void publish(String bucket, String key) {
        }

        @Override
        public void close() {
        }
    };

    /** Throws when the message may not have reached the channel. An empty key: the bucket's versioning changed. */
    void publish(String bucket, String key) throws IOException;
}
