package dev.cairn.backup.source.cassandra;

import com.datastax.oss.driver.api.core.metadata.Node;
import dev.cairn.backup.report.SplitRead;
import dev.cairn.backup.source.BackupSource;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pages of one split counted by the node that answered them, with the node's datacenter.
 *
 * <p>Thread-safety: safe for concurrent use (a split may be scanned again while its tally is read).
 */
final class SplitReads {
    private final BackupSource.Split split;
    private final Map<String, long[]> pagesByNode = new LinkedHashMap<>();
    private final Map<String, String> datacenterOf = new LinkedHashMap<>();

    SplitReads(BackupSource.Split split) {
        this.split = split;
    }

    synchronized void answeredBy(Node node) {
        String name = name(node);
        pagesByNode.computeIfAbsent(name, n -> new long[1])[0]++;
        datacenterOf.putIfAbsent(name, node == null || node.getDatacenter() == null ? "unknown" : node.getDatacenter());
    }

    synchronized SplitRead read() {
        List<SplitRead.NodeRead> nodes = new ArrayList<>();
        pagesByNode.forEach((name, pages) -> nodes.add(new SplitRead.NodeRead(datacenterOf.get(name), name, pages[0])));
        return new SplitRead(split.id(), split.description(), List.copyOf(nodes));
    }

    private static String name(Node node) {
        if (node == null) {
            return "unknown";
        }
        SocketAddress a = node.getEndPoint().resolve();
        if (a instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return node.getEndPoint().toString();
    }
}
