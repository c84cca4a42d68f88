package dev.cairn.service.keys;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/cairn keys add|list|remove|rotate}: manages the key file (docs/security.md). The
 * running service picks every change up by itself. {@code list} never prints a secret; {@code add}
 * and {@code rotate} print the new one once. Changes are written to a temporary file and renamed
 * over the key file (mode 0600), under a lock file next to it, so two runs never lose each
 * other's change.
 */
public final class KeysCommand {
    private static final String USAGE = """
            usage: bin/cairn keys [--file FILE] <command>

              add ROLE[:BUCKET]... [--access-key ID]   a new key (ID generated unless given); prints its secret once
              list                                     access keys and their roles, never secrets
              remove ACCESS_KEY                        deletes the key
              rotate ACCESS_KEY                        a new secret for the key; prints it once

            Roles: admin, read-write, read-only, write-only (each for all buckets, or ROLE:BUCKET for one),
            metrics, backup (all buckets only). FILE: --file, else $CAIRN_AUTH_KEYSFILE, else data/keys.
            """;

    private KeysCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> rest = new ArrayList<>(List.of(args));
        String env = System.getenv("CAIRN_AUTH_KEYSFILE");
        Path file = Path.of(env != null && !env.isBlank() ? env : "data/keys");
        int f = rest.indexOf("--file");
        if (f >= 0) {
            if (f + 1 >= rest.size()) {
                err.print(USAGE);
                return 2;
            }
            file = Path.of(rest.get(f + 1));
            rest.subList(f, f + 2).clear();
        }
        if (rest.isEmpty() || rest.get(0).equals("--help") || rest.get(0).equals("help")) {
            (rest.isEmpty() ? err : out).print(USAGE);
            return rest.isEmpty() ? 2 : 0;
        }
        String command = rest.remove(0);
        try {
            return switch (command) {
                case "list" -> list(file, out);
                case "add" -> add(file, rest, out);
                case "remove" -> change(file, rest, false, out);
                case "rotate" -> change(file, rest, true, out);
                default -> {
                    err.print(USAGE);
                    yield 2;
                }
            };
        } catch (IllegalArgumentException | IOException e) {
            err.println("cairn keys: " + e.getMessage());
            return 1;
        }
    }

    private static int list(Path file, PrintStream out) throws IOException {
        for (AccessKey k : KeyFile.read(file, true)) {
            out.println(k.id() + " " + String.join(" ", k.grants().stream().map(Grant::toString).toList()));
        }
        return 0;
    }

    private static int add(Path file, List<String> args, PrintStream out) throws IOException {
        String id = null;
        int a = args.indexOf("--access-key");
        if (a >= 0) {
            if (a + 1 >= args.size()) {
                throw new IllegalArgumentException("--access-key needs a value");
            }
            id = args.get(a + 1);
            args.subList(a, a + 2).clear();
        }
        if (args.isEmpty()) {
            throw new IllegalArgumentException("add needs at least one role (admin, read-write:BUCKET, ...)");
        }
        List<Grant> grants = new ArrayList<>();
        for (String g : args) {
            grants.add(Grant.parse(g));
        }
        AccessKey key = new AccessKey(id == null ? KeyFile.newAccessKeyId() : id, KeyFile.newSecret(), grants);
        key.checkFileForm();
        try (FileLock lock = lock(file)) {
            List<AccessKey> keys = new ArrayList<>(Files.exists(file) ? KeyFile.read(file, true) : List.of());
            if (keys.stream().anyMatch(k -> k.id().equals(key.id()))) {
                throw new IllegalArgumentException("access key " + key.id() + " exists already (rotate it instead)");
            }
            keys.add(key);
            KeyFile.write(file, keys);
        }
        printPair(out, key);
        return 0;
    }

    private static int change(Path file, List<String> args, boolean rotate, PrintStream out) throws IOException {
        if (args.size() != 1) {
            throw new IllegalArgumentException((rotate ? "rotate" : "remove") + " takes one access key");
        }
        String id = args.get(0);
        AccessKey changed = null;
        try (FileLock lock = lock(file)) {
            List<AccessKey> keys = new ArrayList<>(KeyFile.read(file, true));
            for (int i = 0; i < keys.size(); i++) {
                if (keys.get(i).id().equals(id)) {
                    if (rotate) {
                        changed = keys.get(i).withSecret(KeyFile.newSecret());
                        keys.set(i, changed);
                    } else {
                        changed = keys.remove(i);
                    }
                    break;
                }
            }
            if (changed == null) {
                throw new IllegalArgumentException("no access key " + id + " in " + file);
            }
            KeyFile.write(file, keys);
        }
        if (rotate) {
            printPair(out, changed);
        } else {
            out.println("removed " + id + " from " + file);
        }
        return 0;
    }

    private static void printPair(PrintStream out, AccessKey key) {
        out.println("AWS_ACCESS_KEY_ID=" + key.id());
        out.println("AWS_SECRET_ACCESS_KEY=" + key.secret());
        out.println("# roles: " + String.join(" ", key.grants().stream().map(Grant::toString).toList())
                + "; the secret is shown this once");
    }

    private static FileLock lock(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        FileChannel channel = FileChannel.open(dir.resolve("." + file.getFileName() + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        return new ChannelLock(channel).lock();
    }

    /** A lock that closes its channel when released. */
    private record ChannelLock(FileChannel channel) {
        FileLock lock() throws IOException {
            FileLock l = channel.lock();
            return new FileLock(channel, 0, Long.MAX_VALUE, false) {
                @Override
                public boolean isValid() {
                    return l.isValid();
                }

                @Override
                public void release() throws IOException {
                    l.release();
                    channel.close();
                }
            };
        }
    }
}
