package dev.rsql.runtime.config;

/** A setting is missing or malformed. The message names the setting. */
public class ConfigException extends RuntimeException {

    private final String option;

    public ConfigException(String message) {
        this(null, message, null);
    }

    public ConfigException(String message, Throwable cause) {
        this(null, message, cause);
    }

    /** @param option the key (as written) of the option to blame, or null */
    public ConfigException(String option, String message, Throwable cause) {
        super(message, cause);
        this.option = option;
    }

    /** A problem with the value of one option, e.g. {@code 'number-of-rows' = 'ten'}. */
    public static ConfigException ofOption(String option, String message) {
        return new ConfigException(option, message, null);
    }

    /** The key of the option to blame, as written (a planner reports its position in the script), or null. */
    public String option() {
        return option;
    }
}
