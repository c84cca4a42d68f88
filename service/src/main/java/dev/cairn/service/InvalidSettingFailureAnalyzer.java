package dev.cairn.service;

import dev.cairn.service.config.InvalidSettingException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A setting the service cannot start with: its message alone says what is wrong, no stack trace. */
public class InvalidSettingFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSettingException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidSettingException cause) {
        return new FailureAnalysis(cause.getMessage(), null, cause);
    }
}
