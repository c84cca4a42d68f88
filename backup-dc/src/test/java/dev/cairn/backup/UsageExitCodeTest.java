package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.cli.ExitCode;
import dev.cairn.backup.cli.BackupSources;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every mistake in a command's options exits 2, as docs/backup.md says, whether picocli finds it
 * (unknown option, missing required option, a value of the wrong type) or the command does (an
 * option that needs another, a malformed URL, a key file that does not exist, a count of 0);
 * nothing is contacted and nothing written.
 */
class UsageExitCodeTest {
    @TempDir
    Path dir;

    private int exitOf(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            var cl = Main.commandLine(BackupSources::open);
            cl.setErr(new PrintWriter(new PrintStream(err, true, StandardCharsets.UTF_8), true));
            cl.setOut(new PrintWriter(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), true));
            int exit = cl.execute(args);
            assertTrue(err.size() > 0, "a usage error says what is wrong: " + List.of(args));
            return exit;
        } finally {
            System.setErr(savedErr);
        }
    }

    private String[] run(String command, String... options) throws IOException {
        Path access = Files.writeString(dir.resolve("access"), "AKID\n");
        Path secret = Files.writeString(dir.resolve("secret"), "secret\n");
        List<String> args = new ArrayList<>(List.of(command));
        if (command.equals("schedule")) {
            args.addAll(List.of("--cron", "0 3 * * *"));
        }
        args.addAll(List.of("--source", "embedded", "--service-url", "http://127.0.0.1:9",
                "--admin-access-key-file", access.toString(), "--admin-secret-key-file", secret.toString(),
                "--target", "dir:" + dir.resolve("archive")));
        args.addAll(List.of(options));
        return args.toArray(String[]::new);
    }

    @Test
    void badUsageOfRunAndScheduleExitsTwo() throws IOException {
        for (String command : List.of("run", "schedule")) {
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--no-such-option")), command);
            assertEquals(ExitCode.USAGE, exitOf(command, "--target", "dir:" + dir.resolve("archive")), command);
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--copy-threads", "many")), command);
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--copy-threads", "0")), command);
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--lease-seconds", "0")), command);
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--read-rate", "fast")), command);
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--service-url", "127.0.0.1:9000")), command);
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--admin-access-key-file", dir.resolve("none").toString())),
                    command);
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--target", "/backups")), command);
            assertEquals(ExitCode.USAGE, exitOf(run(command, "--target", "s3://b/p", "--target-access-key-file",
                    dir.resolve("access").toString())), command);
            assertEquals(ExitCode.USAGE, exitOf(command, "--source", "embedded", "--target", "dir:" + dir.resolve("archive")),
                    command);
            assertEquals(ExitCode.USAGE, exitOf(command, "--source", "cassandra", "--target", "dir:" + dir.resolve("archive")),
                    command);
        }
        assertTrue(!Files.exists(dir.resolve("archive")) || Files.list(dir.resolve("archive")).findAny().isEmpty(),
                "nothing written");
    }

    @Test
    void badUsageOfTheOtherCommandsExitsTwo() {
        String archive = "dir:" + dir.resolve("archive");
        for (String command : List.of("list", "verify", "prune", "restore", "dump")) {
            assertEquals(ExitCode.USAGE, exitOf(command, "--no-such-option"), command);
        }
        assertEquals(ExitCode.USAGE, exitOf("list", "--target", "ftp://host/x"));
        assertEquals(ExitCode.USAGE, exitOf("verify", "--target", archive, "--threads", "x"));
        assertEquals(ExitCode.USAGE, exitOf("prune", "--target", archive));
        assertEquals(ExitCode.USAGE, exitOf("prune", "--target", archive, "--keep-last", "-1"));
        assertEquals(ExitCode.USAGE, exitOf("backup-nothing"));
    }
}
