package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.service.admin.Checkpoints;
import dev.cairn.service.auth.CredentialsProvider;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.http.Cookie;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** The operations page shows the table of checkpoints held by backup jobs only where the store takes checkpoints. */
class OpsControllerTest {
    @TempDir
    Path dir;

    private String page(Checkpoints checkpoints) throws Exception {
        ConsoleSessions sessions = new ConsoleSessions(CredentialsProvider.of(Map.of("ADMIN", "a")),
                Clock.systemUTC(), Duration.ofMinutes(30), Duration.ofHours(12));
        ConsoleSession admin = sessions.signIn("ADMIN", "a").orElseThrow();
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        if (checkpoints != null) {
            beans.addBean("checkpoints", checkpoints);
        }
        try (BackupHistory history = new BackupHistory(null, Duration.ofSeconds(30), System::nanoTime, Clock.systemUTC())) {
            OpsController ops = new OpsController((key, bucket, action) -> true,
                    new OpsSampler(new SimpleMeterRegistry(), null, Map.of(), System::nanoTime),
                    beans.getBeanProvider(Checkpoints.class), beans.getBeanProvider(ClusterNodes.class),
                    new BackupStatus(null, Clock.systemUTC()), history);
            return MockMvcBuilders.standaloneSetup(ops).addInterceptors(new ConsoleGuard(sessions)).build()
                    .perform(get("/console/ops").cookie(new Cookie(ConsoleGuard.COOKIE, admin.id())))
                    .andReturn().getResponse().getContentAsString();
        }
    }

    @Test
    void theCheckpointTableIsShownOnlyWhereCheckpointsAreTaken() throws Exception {
        assertFalse(page(null).contains("id=\"backups\""), "a store without checkpoints shows no table that stays empty");
        try (Engine engine = Engine.open(EngineOptions.builder(dir.resolve("engine")).build());
             Checkpoints checkpoints = new Checkpoints(engine, dir.resolve("checkpoints"), Duration.ofHours(6), Clock.systemUTC())) {
            assertTrue(page(checkpoints).contains("id=\"backups\""));
        }
    }
}
