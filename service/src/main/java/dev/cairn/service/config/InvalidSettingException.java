package dev.cairn.service.config;

/**
 * A setting the service cannot start with. Its message names the setting and says what is wrong,
 * complete enough to be the one line the service prints when it refuses to start.
 */
public class InvalidSettingException extends IllegalArgumentException {
    public InvalidSettingException(String message) {
        super(message);
    }

    /**
     * How a setting is written in the environment under Spring's relaxed binding:
     * {@code CAIRN_AUTH_KEYSFILE}; the form with dashes as underscores ({@code CAIRN_DATA_DIR})
     * when that is the one this process was given.
     */
    public static String environmentName(String setting) {
        String upper = setting.replace('.', '_').toUpperCase(java.util.Locale.ROOT);
        String dashesAsUnderscores = upper.replace('-', '_');
        String canonical = upper.replace("-", "");
        return System.getenv(canonical) == null && System.getenv(dashesAsUnderscores) != null ? dashesAsUnderscores : canonical;
    }

    /** A refusal of {@code setting}'s value: {@code cairn.auth.keys-file (CAIRN_AUTH_KEYSFILE): <problem>}. */
    public static InvalidSettingException of(String setting, String problem) {
        return new InvalidSettingException(setting + " (" + environmentName(setting) + "): " + problem);
    }
}
