package dev.cairn.loadtest.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.loadtest.report.Comparison;
import dev.cairn.loadtest.report.HtmlReport;
import dev.cairn.loadtest.report.ResultFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadtest compare}: result files side by side. Thread-safety: one per invocation. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Put result files side by side, with the first file's ratio to each other.")
public final class CompareCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "2..*", paramLabel = "RESULT.json", description = "Result files; the first is compared to the others.")
    List<Path> files;

    @Option(names = "--html", description = "Also write an HTML report of all of them here.")
    Path html;

    @Override
    public Integer call() throws IOException {
        List<JsonNode> results = new ArrayList<>();
        for (Path f : files) {
            results.add(ResultFiles.read(f));
        }
        List<String> names = ReportCommand.names(files, results);
        spec.commandLine().getOut().print(Comparison.format(results, names));
        if (html != null) {
            Files.writeString(html, HtmlReport.render(results, names), StandardCharsets.UTF_8);
            spec.commandLine().getOut().println("report: " + html);
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
