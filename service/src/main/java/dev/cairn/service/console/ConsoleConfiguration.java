package dev.cairn.service.console;

import dev.cairn.engine.Engine;
import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.config.ConsoleProperties;
import dev.cairn.service.keys.KeyRing;
import dev.cairn.service.s3.ConsoleRoute;
import dev.cairn.store.ObjectStore;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.servlet.filter.OrderedFormContentFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Wires the web console (docs/console.md) when {@code cairn.console.enabled} is true: the
 * session store, the access rules, thumbnails, the operations sampler, the guard in front of
 * every console handler and the static assets. {@code JettyS3Handler} passes {@code /console}
 * on to the servlet context, where Spring MVC routes it to the console's controllers.
 */
@Configuration(proxyBeanMethods = false)
@ConsoleOn
public class ConsoleConfiguration {
    static final String THUMBNAIL_DIR = "console/thumbnails";

    @Bean
    ConsoleProperties consoleSettings(CairnProperties props) {
        return props.getConsole();
    }

    @Bean
    ConsoleAccess consoleAccess(KeyRing keys) {
        return new RoleConsoleAccess(keys);
    }

    /** Signs in every key S3 knows, the key file's included, as they are reloaded. */
    @Bean
    ConsoleSessions consoleSessions(KeyRing keys, ConsoleProperties settings) {
        return new ConsoleSessions(keys, Clock.systemUTC(), settings.getSessionIdleTimeout(),
                settings.getSessionMaxAge());
    }

    @Bean
    ThumbnailCache thumbnailCache(ConsoleProperties settings, CairnProperties props) {
        return new ThumbnailCache(new Thumbnailer(settings.getThumbnailMaxPixels()),
                props.getDataDir().resolve(THUMBNAIL_DIR), settings.getThumbnailCacheSize().toBytes());
    }

    @Bean(destroyMethod = "close")
    ThumbnailSweeper thumbnailSweeper(ThumbnailCache cache, ObjectStore store, ConsoleProperties settings) {
        return new ThumbnailSweeper(cache, store, settings.getThumbnailSweepInterval());
    }

    @Bean
    OpsSampler opsSampler(MeterRegistry registry, ObjectProvider<Engine> engine, CairnProperties props) {
        Map<String, Path> tiers = new LinkedHashMap<>();
        tiers.put("fast (data directory)", props.getDataDir());
        if (props.getEngine().getCapacityDir() != null) {
            tiers.put("capacity", props.getEngine().getCapacityDir());
        }
        return new OpsSampler(registry, engine.getIfAvailable(), tiers, System::nanoTime);
    }

    @Bean
    BackupStatus backupStatus(ConsoleProperties settings) {
        return new BackupStatus(settings.getBackupMetricsFile(), Clock.systemUTC());
    }

    /** The history of backup runs, shown when {@code cairn.console.backup-archive} names an archive. */
    @Bean(destroyMethod = "close")
    BackupHistory backupHistory(ConsoleProperties settings) {
        BackupHistory.Source source = BackupArchives.open(settings, System.getenv(), Clock.systemUTC());
        return new BackupHistory(source, settings.getBackupArchiveRefresh(), System::nanoTime, Clock.systemUTC());
    }

    /**
     * Spring's form filter, except for the console's uploads: it would read an upload sent as
     * {@code application/x-www-form-urlencoded} as a form, swallowing the file.
     */
    @Bean
    OrderedFormContentFilter formContentFilter() {
        return new OrderedFormContentFilter() {
            @Override
            protected boolean shouldNotFilter(HttpServletRequest request) {
                return ConsoleRoute.isConsole(request.getRequestURI());
            }
        };
    }

    @Bean
    WebMvcConfigurer consoleMvc(ConsoleSessions sessions) {
        ConsoleGuard guard = new ConsoleGuard(sessions);
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(guard).addPathPatterns(ConsoleRoute.PREFIX, ConsoleRoute.PREFIX + "/**");
            }

            @Override
            public void addResourceHandlers(ResourceHandlerRegistry registry) {
                registry.addResourceHandler(ConsoleRoute.PREFIX + "/assets/**").addResourceLocations("classpath:/console/")
                        .setCachePeriod(3600);
            }
        };
    }
}
