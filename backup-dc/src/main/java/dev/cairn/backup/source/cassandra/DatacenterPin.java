package dev.cairn.backup.source.cassandra;

import com.datastax.oss.driver.api.core.loadbalancing.NodeDistance;
import com.datastax.oss.driver.api.core.loadbalancing.NodeDistanceEvaluator;
import com.datastax.oss.driver.api.core.metadata.Node;

/**
 * Confines a driver session to one datacenter: every node of another datacenter, or of none
 * known yet, is {@link NodeDistance#IGNORED}, so the driver opens no pool to it and never puts it
 * in a query plan — whatever happens to the nodes of the pinned datacenter. Thread-safe.
 */
final class DatacenterPin implements NodeDistanceEvaluator {
    private final String datacenter;

    DatacenterPin(String datacenter) {
        this.datacenter = datacenter;
    }

    /** IGNORED for a node outside the pinned datacenter; otherwise null, the policy decides. */
    @Override
    public NodeDistance evaluateDistance(Node node, String localDc) {
        return datacenter.equals(node.getDatacenter()) ? null : NodeDistance.IGNORED;
    }

    boolean admits(Node node) {
        return datacenter.equals(node.getDatacenter());
    }

    String datacenter() {
        return datacenter;
    }
}
