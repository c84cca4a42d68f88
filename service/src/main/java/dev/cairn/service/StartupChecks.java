package dev.cairn.service;

import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.config.InvalidSettingException;
import dev.cairn.service.config.SettingPaths;
import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.store.embedded.MisplacedEngineException;
import java.nio.file.Path;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Checks the settings (their values, then those that name files and directories, then the data
 * directory's layout) once the configuration is read and before anything starts, so that a wrong
 * setting stops the start with one line ({@link StartupFailureReporter}) rather than a failure
 * inside whatever opened it first. Runs right after logging is set up, so that application.yaml's logging levels already
 * hold when the failure is reported. Values that do not even bind are left to Spring's binding,
 * which reports them itself.
 */
public class StartupChecks implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {
    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        ConfigurableEnvironment environment = event.getEnvironment();
        CairnProperties props;
        try {
            props = Binder.get(environment).bind("cairn", CairnProperties.class).orElseGet(CairnProperties::new);
        } catch (BindException e) {
            return;
        }
        validate(props);
        SettingPaths.check(props, environment::getProperty);
        if (CairnProperties.STORE_EMBEDDED.equals(props.getStore()) && props.getDataDir() != null) {
            checkDataDirLayout(props.getDataDir());
        }
    }

    /** {@link DataDirLayout#check}, refused as the setting that named the directory. */
    static void checkDataDirLayout(Path dataDir) {
        try {
            DataDirLayout.check(dataDir);
        } catch (MisplacedEngineException e) {
            throw InvalidSettingException.of("cairn.data-dir", e.getMessage());
        }
    }

    /** The settings' own checks, each refusal an {@link InvalidSettingException}; the only place they run. */
    private static void validate(CairnProperties props) {
        props.validate();
        if (props.getConsole().isEnabled()) {
            props.getConsole().validate();
        }
    }

    @Override
    public int getOrder() {
        return LoggingApplicationListener.DEFAULT_ORDER + 1;
    }
}
