package dev.cairn.service;

import java.io.PrintStream;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalysisReporter;

/**
 * Says why the service did not start in as few lines as it takes, each starting with
 * {@code cairn:}, on standard error. It stands in for Spring's own reporter, whose logger
 * application.yaml turns off: that one frames every analysis in a banner of asterisks.
 */
public class StartupFailureReporter implements FailureAnalysisReporter {
    private final PrintStream out;

    public StartupFailureReporter() {
        this(System.err);
    }

    StartupFailureReporter(PrintStream out) {
        this.out = out;
    }

    @Override
    public void report(FailureAnalysis analysis) {
        StringBuilder text = new StringBuilder();
        for (String part : new String[] {analysis.getDescription(), analysis.getAction()}) {
            if (part == null || part.isBlank()) {
                continue;
            }
            for (String line : part.strip().split("\\R")) {
                if (!line.isBlank()) {
                    text.append("cairn: ").append(line.strip()).append(System.lineSeparator());
                }
            }
        }
        out.print(text);
        out.flush();
    }
}
