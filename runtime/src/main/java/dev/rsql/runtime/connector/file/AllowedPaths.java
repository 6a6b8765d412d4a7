package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine setting {@code file.allowed-paths} (conf/rsql.conf or SET; directories separated by commas): when set,
 * file sources and sinks may only touch paths inside those directories. Paths are compared as the file system resolves
 * them (absolute, {@code ..} and symbolic links followed, as far as they exist), so that neither a link nor a
 * relative path leads outside. Unset: every path is allowed.
 */
public final class AllowedPaths {

    static final String KEY = "file.allowed-paths";

    private final List<Path> roots;
    private final String setting;

    private AllowedPaths(List<Path> roots, String setting) {
        this.roots = roots;
        this.setting = setting;
    }

    public static AllowedPaths of(Options config) {
        String v = config.get(KEY);
        List<Path> roots = new ArrayList<>();
        if (v != null) {
            for (String entry : v.split(",")) {
                if (!entry.isBlank()) {
                    roots.add(resolved(FileSource.toPath(entry)));
                }
            }
        }
        return new AllowedPaths(List.copyOf(roots), v);
    }

    /** Refuses {@code path} of table {@code table} ({@code what}: "file source", "file sink") when outside. */
    public void check(String what, String table, Path path) {
        if (setting == null) {
            return;
        }
        Path real = resolved(path);
        for (Path root : roots) {
            if (real.startsWith(root)) {
                return;
            }
        }
        throw new ConfigException(what + " of table " + table + ": path " + path
                + (real.equals(path) ? "" : " (" + real + ")") + " is outside " + KEY + " " + roots);
    }

    /** The path with links resolved: the real path of its longest existing ancestor, then the rest as written. */
    static Path resolved(Path path) {
        Path p = path.toAbsolutePath().normalize();
        Path existing = p;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return p;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(p)).normalize();
        } catch (IOException e) {
            return p; // a dangling link: its own location is all there is to compare
        }
    }
}
