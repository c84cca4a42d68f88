package dev.cairn.service.console;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The run reports of a directory archive ({@code dir:} target): {@code reports/*.json}, newest
 * first (ids sort by start time). Each is written atomically by the job, so a read sees a whole
 * report; one that cannot be read is left out and the rest still show.
 */
final class DirectoryReports implements BackupHistory.Source {
    private final Path archive;

    DirectoryReports(Path archive) {
        this.archive = archive;
    }

    @Override
    public String describe() {
        return "dir:" + archive;
    }

    @Override
    public List<Map<String, Object>> newest(int n) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(archive.resolve(RunReports.DIRECTORY), "*" + RunReports.SUFFIX)) {
            ds.forEach(files::add);
        } catch (NoSuchFileException e) {
            return List.of(); // no run has finished yet
        }
        files.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
        List<Map<String, Object>> out = new ArrayList<>();
        for (Path f : files) {
            if (out.size() == n) {
                break;
            }
            try {
                out.add(RunReports.row(Files.readAllBytes(f)));
            } catch (IOException e) {
                // Not one of the job's reports, or gone: the rest still show.
            }
        }
        return out;
    }
}
