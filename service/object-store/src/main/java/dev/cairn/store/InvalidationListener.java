package dev.cairn.store;

/** What a node hears from the channel that carries other nodes' writes. */
public interface InvalidationListener {

    /**
     * Another node (or this one) wrote or deleted the object; an empty {@code key} (no object has
     * one): changed the bucket's versioning.
     */
    void invalidated(String bucket, String key);

    /** Messages may have been lost from now on: cached object rows must no longer be trusted. */
    void channelLost();

    /** Listening again: every write acknowledged from now on will be heard. */
    void channelResumed();
}
