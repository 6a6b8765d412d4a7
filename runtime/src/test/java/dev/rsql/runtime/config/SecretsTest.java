package dev.rsql.runtime.config;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecretsTest {

    @Test
    void keysThatNameASecret() {
        for (String k : new String[] {"password", "PassWord", "db.password", "secretKey", "secret-key", "accessKey",
                "access_key", "token", "sasl.token", "credentials", "api-key", "private.key", "passphrase",
                "properties.sasl.jaas.config"}) {
            assertTrue(Secrets.isSecretKey(k), k);
        }
        for (String k : new String[] {"topic", "nameserver", "accessId", "connector", "path", "format"}) {
            assertFalse(Secrets.isSecretKey(k), k);
        }
    }

    @Test
    void optionsNeverShowSecretOrSubstitutedValues() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("topic", "t");
        m.put("secretKey", "sk-hunter2");
        m.put("rows", "from-env-42x");
        m.put("json.limit", "env-limit-x");
        Options o = new Options(m, Set.of("rows", "json.limit"));
        String shown = o.toString();
        assertFalse(shown.contains("hunter2") || shown.contains("42x") || shown.contains("env-limit"), shown);
        assertTrue(shown.contains("topic=t") && shown.contains("secretKey=" + Secrets.MASK), shown);
        assertEquals("sk-hunter2", o.get("secretkey"), "the value itself is still there for the connector");

        ConfigException e = assertThrows(ConfigException.class, () -> o.getLong(0, "rows"));
        assertEquals("option 'rows' must be an integer, got '" + Secrets.MASK + "'", e.getMessage());
        ConfigException s = assertThrows(ConfigException.class, () -> o.getInt(0, "secretKey"));
        assertFalse(s.getMessage().contains("hunter2"), s.getMessage());

        Options json = o.withPrefix("json.");
        assertEquals(Secrets.MASK, json.shown("limit"));
        Options merged = o.overlay(json);
        assertEquals(Secrets.MASK, merged.shown("limit"));
        assertFalse(merged.toString().contains("env-limit"), merged.toString());
        assertEquals("t", merged.shown("topic"));
        assertEquals("plain", o.with("rows", "plain").shown("rows"), "a value set in code is not substituted");
    }

    @Test
    void anUnclosedPlaceholderErrorDoesNotQuoteTheValue() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Placeholders.resolve("hunter2${OOPS", name -> null));
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    }

    /** A connection string under a key that is not secret is shown with only its credentials masked. */
    @Test
    void credentialsInConnectionStringsAreMasked() {
        Options o = new Options(Map.of("url", "jdbc:mysql://bob:s3cr3t@db:3306/crm?useSSL=false&password=hunter2",
                "other", "jdbc:mysql://db/crm?user=bob;pwd=abc", "plain", "jdbc:mysql://db:3306/crm?useSSL=false"));
        assertEquals("jdbc:mysql://bob:" + Secrets.MASK + "@db:3306/crm?useSSL=false&password=" + Secrets.MASK,
                o.shown("url"));
        assertEquals("jdbc:mysql://db/crm?user=bob;pwd=" + Secrets.MASK, o.shown("other"));
        assertEquals("jdbc:mysql://db:3306/crm?useSSL=false", o.shown("plain"));
        String shown = o.toString();
        assertFalse(shown.contains("s3cr3t") || shown.contains("hunter2") || shown.contains("abc"), shown);
        String redacted = o.redact("connect failed: jdbc:mariadb://bob:s3cr3t@db:3306/crm (hunter2)");
        assertFalse(redacted.contains("s3cr3t") || redacted.contains("hunter2"), redacted);
        assertEquals(java.util.List.of("s3cr3t", "hunter2"), Secrets.credentialsIn(o.get("url")));
    }

    @Test
    void redactMasksWholeValuesAndExpansionsNeverPartsOfWords() {
        Options o = new Options(Map.of("path", "x", "dir", "/data/s3cr3t/in", "note", "plain"),
                Set.of("path", "dir"), Set.of("x", "s3cr3t"));
        assertEquals("table nexmark: path '******' does not exist (/work/******)",
                o.redact("table nexmark: path 'x' does not exist (/work/x)"));
        assertEquals("cannot prepare '******': /data/******", o.redact("cannot prepare '/data/s3cr3t/in': /data/s3cr3t"));
        assertEquals("xx plain s3cr3ts", o.redact("xx plain s3cr3ts"));
        assertEquals("******,******", o.redact("x,x"));
    }
}
