package dev.cairn.service.console;

import dev.cairn.store.cassandra.CassandraObjectStore;
import java.util.List;

/** The Cassandra cluster's nodes as the store sees them, for the operations page; a bean only on Cassandra. */
@FunctionalInterface
public interface ClusterNodes {
    List<CassandraObjectStore.NodeStatus> nodes();
}
