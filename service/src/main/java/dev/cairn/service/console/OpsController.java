package dev.cairn.service.console;

import dev.cairn.service.admin.Checkpoints;
import dev.cairn.store.cassandra.CassandraObjectStore;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * The operations page: live charts drawn by the page's script from {@code /console/api/ops},
 * which it polls every two seconds; the same figures as a table for screen readers. Needs
 * {@link ConsoleAccess.Action#ADMIN} on the service.
 */
@Controller
@ConsoleOn
class OpsController {
    private final ConsoleAccess access;
    private final OpsSampler sampler;
    private final Checkpoints checkpoints;
    private final ClusterNodes cluster;
    private final BackupStatus backups;
    private final BackupHistory history;

    OpsController(ConsoleAccess access, OpsSampler sampler, ObjectProvider<Checkpoints> checkpoints,
                  ObjectProvider<ClusterNodes> cluster, BackupStatus backups, BackupHistory history) {
        this.access = access;
        this.sampler = sampler;
        this.checkpoints = checkpoints.getIfAvailable();
        this.cluster = cluster.getIfAvailable();
        this.backups = backups;
        this.history = history;
    }

    @GetMapping("/console/ops")
    ResponseEntity<String> page(HttpServletRequest request) {
        ConsoleSession s = ConsoleGuard.session(request);
        Pages.require(access, s, null, ConsoleAccess.Action.ADMIN);
        Html h = new Html().begin("Operations", s, true);
        h.raw("<p class=\"help\">Figures of this service process, sampled every 2 s while this page is open.</p>")
                .raw("<div class=\"charts\">");
        chart(h, "rps", "Requests per second");
        chart(h, "latency", "Latency p50 and p99 (ms)");
        chart(h, "errors", "Errors per second");
        chart(h, "ratios", "Cache hit ratio per tier");
        h.raw("</div><h2>Now</h2><table id=\"now\" class=\"details\"><caption>Latest figures</caption><tbody></tbody></table>")
                .raw("<h2>Disk use per tier</h2><table id=\"disk\" class=\"details\"><caption>Bytes Cairn keeps, and free space")
                .raw("</caption><thead><tr><th scope=\"col\">Tier</th><th scope=\"col\">Used by Cairn</th>")
                .raw("<th scope=\"col\">Free</th><th scope=\"col\">File system</th></tr></thead><tbody></tbody></table>");
        if (checkpoints != null) {
            // Only a store that takes checkpoints has them; elsewhere the table would stay empty for good.
            h.raw("<h2>Backups</h2><table id=\"backups\" class=\"details\"><caption>Checkpoints held by backup jobs</caption>")
                    .raw("<thead><tr><th scope=\"col\">Id</th><th scope=\"col\">Taken</th><th scope=\"col\">Lease ends</th></tr>")
                    .raw("</thead><tbody></tbody></table>");
        }
        if (backups.configured()) {
            h.raw("<h2>Backup job</h2><table id=\"backupjob\" class=\"details\"><caption>The last run, the last success")
                    .raw(" and the next scheduled run, from the job's metrics file</caption><tbody></tbody></table>");
        }
        if (history.configured()) {
            h.raw("<h2>Backup history</h2><p id=\"backuphistorystate\" class=\"help\" role=\"status\">Reading the archive…</p>")
                    .raw("<table id=\"backuphistory\" class=\"details\"><caption>The newest runs")
                    .raw(" of the backup archive</caption><thead><tr><th scope=\"col\">Backup</th>")
                    .raw("<th scope=\"col\">Status</th><th scope=\"col\">Started</th><th scope=\"col\">Duration (s)</th>")
                    .raw("<th scope=\"col\">Objects</th><th scope=\"col\">Copied</th><th scope=\"col\">Errors</th></tr>")
                    .raw("</thead><tbody></tbody></table>");
        }
        if (cluster != null) {
            h.raw("<h2>Cassandra nodes</h2><table id=\"nodes\" class=\"details\"><caption>Every node as this service's")
                    .raw(" driver sees it (other datacenters: from the cluster's status events)</caption><thead><tr>")
                    .raw("<th scope=\"col\">Node</th><th scope=\"col\">Datacenter</th><th scope=\"col\">State</th>")
                    .raw("<th scope=\"col\">Connections</th></tr></thead><tbody></tbody></table>");
        }
        return Pages.html(200, h.end());
    }

    private static void chart(Html h, String id, String title) {
        h.raw("<figure><figcaption id=\"").raw(id).raw("Title\">").text(title).raw("</figcaption><canvas id=\"").raw(id)
                .raw("\" width=\"480\" height=\"160\" role=\"img\" aria-labelledby=\"").raw(id).raw("Title\"></canvas>")
                .raw("<div class=\"legend\" id=\"").raw(id).raw("Legend\"></div></figure>");
    }

    @GetMapping("/console/api/ops")
    @ResponseBody
    Map<String, Object> figures(HttpServletRequest request) {
        Pages.require(access, ConsoleGuard.session(request), null, ConsoleAccess.Action.ADMIN);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("samples", sampler.poll());
        out.put("disk", sampler.disk());
        if (checkpoints != null) {
            List<Map<String, String>> held = new ArrayList<>();
            for (Checkpoints.Checkpoint c : checkpoints.list()) {
                held.add(Map.of("id", c.id(), "createdAt", c.createdAt().toString(), "expiresAt", c.expiresAt().toString()));
            }
            out.put("checkpoints", held);
        }
        if (backups.configured()) {
            out.put("backup", backups.latest());
        }
        if (history.configured()) {
            out.put("backupHistory", history.view());
        }
        if (cluster != null) {
            List<Map<String, Object>> nodes = new ArrayList<>();
            for (CassandraObjectStore.NodeStatus n : cluster.nodes()) {
                nodes.add(Map.of("address", n.address(), "datacenter", n.datacenter(), "state", n.state(),
                        "openConnections", n.openConnections()));
            }
            out.put("nodes", nodes);
        }
        return out;
    }
}
