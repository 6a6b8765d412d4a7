package dev.rsql.runtime.state;

import java.nio.charset.StandardCharsets;

/** A {@code String} as UTF-8 bytes. */
public final class StringSerializer implements TypeSerializer<String> {

    public static final StringSerializer INSTANCE = new StringSerializer();

    private StringSerializer() {
    }

    @Override
    public byte[] serialize(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String deserialize(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
