package dev.cairn.loadtest.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.loadtest.report.HtmlReport;
import dev.cairn.loadtest.report.ResultFiles;
import dev.cairn.loadtest.report.SummaryTable;
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

/** {@code loadtest report}: the HTML report of result files. Thread-safety: one per invocation. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write a self-contained HTML report (tables, charts) of one or more result files.")
public final class ReportCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RESULT.json", description = "Result files written by 'loadtest run'.")
    List<Path> files;

    @Option(names = {"-o", "--out"}, required = true, description = "The HTML file to write.")
    Path out;

    @Override
    public Integer call() throws IOException {
        List<JsonNode> results = new ArrayList<>();
        for (Path f : files) {
            results.add(ResultFiles.read(f));
        }
        Files.writeString(out, HtmlReport.render(results, names(files, results)), StandardCharsets.UTF_8);
        for (JsonNode r : results) {
            spec.commandLine().getOut().print(SummaryTable.format(r));
        }
        spec.commandLine().getOut().println("report: " + out);
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** Each result's label, or its file name when it has none or labels repeat. */
    static List<String> names(List<Path> files, List<JsonNode> results) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            String label = results.get(i).path("label").asText("");
            names.add(label.isEmpty() || names.contains(label) ? files.get(i).getFileName().toString() : label);
        }
        return names;
    }
}
