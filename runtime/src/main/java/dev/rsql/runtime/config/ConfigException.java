package dev.rsql.runtime.config;

/** A setting is missing or malformed. The message names the setting. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
