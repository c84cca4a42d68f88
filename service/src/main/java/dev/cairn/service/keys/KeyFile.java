package dev.cairn.service.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The key file (docs/format/keys.md): one access key per line, {@code <access key> <secret>
 * <grant>...}, {@code #} comments and blank lines ignored. It holds secrets, so it must be readable
 * by its owner only: a file that others can read or write is refused, with the fix in the message.
 * Errors name the file and line, never a secret. Stateless; thread-safe.
 */
public final class KeyFile {
    private static final String HEADER = "# Cairn access keys (docs/format/keys.md): <access key> <secret> <role>[:<bucket>] ...\n";
    private static final String ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    private static final String SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private KeyFile() {
    }

    /**
     * The keys of {@code file}, in file order, after checking its permissions.
     *
     * @param groupReadable whether a group-readable file is accepted (Kubernetes secret volumes
     *                      with an {@code fsGroup}); a world-readable one never is
     */
    public static List<AccessKey> read(Path file, boolean groupReadable) throws IOException {
        checkPermissions(file, groupReadable);
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    static List<AccessKey> parse(String text, String where) {
        Map<String, AccessKey> keys = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("[ \t]+");
            String at = where + ", line " + (i + 1);
            if (fields.length < 3) {
                throw new IllegalArgumentException(at + ": expected '<access key> <secret> <role>[:<bucket>] ...'");
            }
            try {
                List<Grant> grants = new ArrayList<>();
                for (int g = 2; g < fields.length; g++) {
                    grants.add(Grant.parse(fields[g]));
                }
                AccessKey key = new AccessKey(fields[0], fields[1], grants);
                key.checkFileForm();
                if (keys.putIfAbsent(key.id(), key) != null) {
                    throw new IllegalArgumentException("access key " + key.id() + " appears twice");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(at + ": " + e.getMessage());
            }
        }
        return List.copyOf(keys.values());
    }

    /** Refuses a file that others may read or write, naming the fix. */
    public static void checkPermissions(Path file, boolean groupReadable) throws IOException {
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("key file " + file + " does not exist (create it with bin/cairn keys add)");
        }
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException notPosix) {
            return;
        }
        boolean open = perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.OTHERS_WRITE)
                || perms.contains(PosixFilePermission.GROUP_WRITE)
                || !groupReadable && perms.contains(PosixFilePermission.GROUP_READ);
        if (open) {
            throw new IllegalArgumentException("key file " + file + " has mode " + PosixFilePermissions.toString(perms)
                    + ": it holds secrets and must be readable by its owner only (chmod 600 " + file + ")");
        }
    }

    /** Writes {@code keys} to {@code file} with mode 0600, atomically (a temporary file, then a rename). */
    public static void write(Path file, List<AccessKey> keys) throws IOException {
        StringBuilder out = new StringBuilder(HEADER);
        for (AccessKey k : keys) {
            out.append(k.id()).append(' ').append(k.secret());
            for (Grant g : k.grants()) {
                out.append(' ').append(g);
            }
            out.append('\n');
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(tmp);
        }
        try {
            Files.writeString(tmp, out, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A new access key id: {@code CAIRN} and 15 base-32 characters. */
    public static String newAccessKeyId() {
        return "CAIRN" + random(ID_ALPHABET, 15);
    }

    /** A new secret: 40 letters and digits (238 bits). */
    public static String newSecret() {
        return random(SECRET_ALPHABET, 40);
    }

    private static String random(String alphabet, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return sb.toString();
    }
}
