package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** Builds driver sessions from {@link CassandraSettings}. Stateless; thread-safe. */
public final class CassandraSessions {
    private CassandraSessions() {
    }

    /** A session that sends requests to the local datacenter only. */
    public static CqlSession connect(CassandraSettings s) {
        return connect(s, s.getLocalDatacenter(), s.getContactPoints());
    }

    /** A session confined to {@code datacenter}, reached through {@code contactPoints}. */
    public static CqlSession connect(CassandraSettings s, String datacenter, List<String> contactPoints) {
        return connect(s, datacenter, contactPoints, null);
    }

    /** As {@link #connect(CassandraSettings, String, List)}, reporting every request to {@code tracker} (may be null). */
    public static CqlSession connect(CassandraSettings s, String datacenter, List<String> contactPoints,
                                     RequestTracker tracker) {
        DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, s.getRequestTimeout())
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, s.getConnectTimeout())
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, s.getConnectTimeout())
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, s.getConnectTimeout())
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, s.getSchemaTimeout())
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, s.getSchemaTimeout())
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, "LOCAL_SERIAL")
                .withBoolean(DefaultDriverOption.REQUEST_DEFAULT_IDEMPOTENCE, false)
                .withInt(DefaultDriverOption.REQUEST_PAGE_SIZE, 500)
                .build();
        List<InetSocketAddress> points = new ArrayList<>();
        for (String cp : contactPoints) {
            int colon = cp.lastIndexOf(':');
            points.add(new InetSocketAddress(cp.substring(0, colon), Integer.parseInt(cp.substring(colon + 1))));
        }
        var builder = CqlSession.builder()
                .withConfigLoader(loader)
                .addContactPoints(points)
                .withLocalDatacenter(datacenter);
        if (tracker != null) {
            builder.addRequestTracker(tracker);
        }
        if (s.getUsername() != null) {
            builder.withAuthCredentials(s.getUsername(), s.getPassword() == null ? "" : s.getPassword());
        }
        return builder.build();
    }
}
