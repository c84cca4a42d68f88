package dev.cairn.backup.report;

import java.util.List;

/**
 * Where one split of a run was read from: for a source of several nodes (Cassandra), each node
 * that answered its pages, with its datacenter, so that a report shows the scan stayed in the
 * datacenter it was pointed at.
 *
 * @param split       the split's id
 * @param description the split's own words, e.g. its token range
 * @param readFrom    the nodes that answered, in the order first seen
 */
public record SplitRead(String split, String description, List<NodeRead> readFrom) {

    /**
     * @param node  address:port of the node that coordinated the pages
     * @param pages how many pages of this split it answered
     */
    public record NodeRead(String datacenter, String node, long pages) {
    }

    /** One line for the job's log, e.g. {@code tokens (a, b]: datacenter backup, node 127.0.0.3:9042 (4 pages)}. */
    public String line() {
        StringBuilder b = new StringBuilder(description).append(": read from");
        String sep = " ";
        for (NodeRead n : readFrom) {
            b.append(sep).append("datacenter ").append(n.datacenter()).append(", node ").append(n.node())
                    .append(" (").append(n.pages()).append(n.pages() == 1 ? " page)" : " pages)");
            sep = "; ";
        }
        return readFrom.isEmpty() ? description + ": no page read" : b.toString();
    }
}
