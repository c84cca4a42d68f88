package dev.cairn.backup.source.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import dev.cairn.backup.source.SourceOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Driver sessions for the backup: local datacenter = the one read, no failover to a remote
 * datacenter (none allowed by the policy, and every remote node IGNORED by {@link DatacenterPin}),
 * consistency and page size from {@link SourceOptions}. Stateless.
 */
final class PinnedSessions {
    private PinnedSessions() {
    }

    static CqlSession connect(SourceOptions o) throws IOException {
        if (o.contactPoints.isEmpty()) {
            throw new IllegalArgumentException("--contact-points is required with --source cassandra: nodes of datacenter "
                    + o.datacenter);
        }
        Duration timeout = Duration.ofSeconds(o.requestTimeoutSeconds);
        DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, timeout)
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, timeout)
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, timeout)
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, timeout)
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(60))
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, o.consistency)
                .withInt(DefaultDriverOption.REQUEST_PAGE_SIZE, o.pageSize)
                .withBoolean(DefaultDriverOption.REQUEST_DEFAULT_IDEMPOTENCE, true)
                .withInt(DefaultDriverOption.LOAD_BALANCING_DC_FAILOVER_MAX_NODES_PER_REMOTE_DC, 0)
                .withBoolean(DefaultDriverOption.LOAD_BALANCING_DC_FAILOVER_ALLOW_FOR_LOCAL_CONSISTENCY_LEVELS, false)
                .build();
        List<InetSocketAddress> points = new ArrayList<>();
        for (String cp : o.contactPoints) {
            int colon = cp.lastIndexOf(':');
            if (colon < 0) {
                points.add(new InetSocketAddress(cp, 9042));
            } else {
                points.add(new InetSocketAddress(cp.substring(0, colon), Integer.parseInt(cp.substring(colon + 1))));
            }
        }
        CqlSessionBuilder b = CqlSession.builder()
                .withConfigLoader(loader)
                .addContactPoints(points)
                .withLocalDatacenter(o.datacenter)
                .withNodeDistanceEvaluator(new DatacenterPin(o.datacenter));
        if (o.username != null) {
            if (o.passwordFile == null) {
                throw new IllegalArgumentException("--username needs --password-file");
            }
            b.withAuthCredentials(o.username, Files.readString(o.passwordFile, StandardCharsets.UTF_8).strip());
        }
        try {
            return b.build();
        } catch (RuntimeException e) {
            throw new IOException("cannot connect to datacenter " + o.datacenter + " through " + o.contactPoints
                    + ": " + e.getMessage(), e);
        }
    }
}
