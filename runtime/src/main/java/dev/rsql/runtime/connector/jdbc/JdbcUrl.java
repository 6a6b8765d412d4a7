package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Secrets;

import java.util.List;
import java.util.Locale;

/**
 * A JDBC URL as the user wrote it ({@code jdbc:mysql://host:3306/db?...}, {@code jdbc:mariadb://...}) and what may be
 * shown of it: the URL with any password it carries ({@code user:secret@host}, {@code password=secret},
 * {@code pwd=...}) masked ({@link Secrets#maskCredentials}). The bundled MariaDB driver speaks to MySQL and MariaDB
 * servers alike; it is handed the {@code jdbc:mariadb:} form of a {@code jdbc:mysql:} URL.
 */
final class JdbcUrl {

    private final String url;
    private final String shown;
    private final List<String> secrets;

    private JdbcUrl(String url, String shown, List<String> secrets) {
        this.url = url;
        this.shown = shown;
        this.secrets = secrets;
    }

    static JdbcUrl parse(String url) {
        String u = url.trim();
        String lower = u.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("jdbc:mysql:") && !lower.startsWith("jdbc:mariadb:")) {
            throw ConfigException.ofOption("url", "option 'url' must be a MySQL or MariaDB JDBC URL"
                    + " (jdbc:mysql://host:port/database or jdbc:mariadb://...), got '" + scheme(u) + "...'");
        }
        return new JdbcUrl(u, Secrets.maskCredentials(u), List.copyOf(Secrets.credentialsIn(u)));
    }

    private static String scheme(String u) {
        int i = u.indexOf("//");
        return i < 0 ? u.substring(0, Math.min(u.length(), 12)) : u.substring(0, i + 2);
    }

    /** The URL as written, for a driver of the user's choice. */
    String raw() {
        return url;
    }

    /** The URL for the bundled MariaDB driver. */
    String forMariaDbDriver() {
        return url.regionMatches(true, 0, "jdbc:mysql:", 0, 11) ? "jdbc:mariadb:" + url.substring(11) : url;
    }

    /** The URL without its secrets. */
    String shown() {
        return shown;
    }

    /** {@code text} with every secret of the URL masked, and the URL itself (in both forms) shown without them. */
    String redact(String text) {
        if (text == null) {
            return null;
        }
        String out = text.replace(url, shown).replace(forMariaDbDriver(), shown);
        for (String s : secrets) {
            out = out.replace(s, Secrets.MASK);
        }
        return out;
    }

    @Override
    public String toString() {
        return shown;
    }
}
