package dev.cairn.service;

import dev.cairn.service.config.CairnProperties;
import io.micrometer.core.instrument.Tags;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsProperties;
import org.springframework.boot.actuate.autoconfigure.system.DiskSpaceHealthIndicatorProperties;
import org.springframework.boot.actuate.metrics.system.DiskSpaceMetricsBinder;
import org.springframework.boot.actuate.system.DiskSpaceHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * The disk space meters ({@code disk.free}, {@code disk.total}) and health indicator measure the
 * file systems Cairn writes to: the data directory and, when set, the capacity tier's. Spring
 * Boot's own measure the working directory, which need not be on either. Paths an operator sets
 * under {@code management.metrics.system.diskspace.paths} or {@code management.health.diskspace.path}
 * still win.
 */
@Configuration(proxyBeanMethods = false)
public class DiskSpaceConfiguration {
    static final String METRICS_PATHS = "management.metrics.system.diskspace.paths";
    static final String HEALTH_PATH = "management.health.diskspace.path";

    @Bean
    public DiskSpaceMetricsBinder diskSpaceMetrics(CairnProperties props, Environment environment, MetricsProperties metrics) {
        List<File> paths = environment.containsProperty(METRICS_PATHS)
                ? metrics.getSystem().getDiskspace().getPaths() : cairnDirectories(props);
        return new DiskSpaceMetricsBinder(paths, Tags.empty());
    }

    @Bean
    @ConditionalOnEnabledHealthIndicator("diskspace")
    public DiskSpaceHealthIndicator diskSpaceHealthIndicator(CairnProperties props, Environment environment,
                                                             ObjectProvider<DiskSpaceHealthIndicatorProperties> health) {
        DiskSpaceHealthIndicatorProperties settings = health.getIfAvailable(DiskSpaceHealthIndicatorProperties::new);
        File path = environment.containsProperty(HEALTH_PATH) ? settings.getPath() : props.getDataDir().toFile();
        DataSize threshold = settings.getThreshold();
        return new DiskSpaceHealthIndicator(path, threshold);
    }

    static List<File> cairnDirectories(CairnProperties props) {
        List<File> paths = new ArrayList<>();
        paths.add(props.getDataDir().toAbsolutePath().toFile());
        if (props.getEngine().getCapacityDir() != null && CairnProperties.STORE_EMBEDDED.equals(props.getStore())) {
            paths.add(props.getEngine().getCapacityDir().toAbsolutePath().toFile());
        }
        return paths;
    }
}
