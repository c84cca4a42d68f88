package dev.cairn.service.console;

import dev.cairn.service.config.ConsoleProperties;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/** Marks the console's beans: present only while {@code cairn.console.enabled} is true. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ConditionalOnProperty(name = "cairn.console.enabled", havingValue = "true", matchIfMissing = ConsoleProperties.DEFAULT_ENABLED)
@interface ConsoleOn {
}
