package dev.rsql.runtime.connector.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Which output files a file sink created: each gets a hidden, empty marker beside it ({@code .<name>.rsql-sink}), so
 * that a later run may truncate or delete it ({@code 'append' = 'false'}) while a file someone else put there is
 * never discarded. File sources skip the markers (hidden files).
 */
final class OwnedFiles {

    private static final String SUFFIX = ".rsql-sink";

    private OwnedFiles() {
    }

    static Path marker(Path file) {
        return file.resolveSibling("." + file.getFileName() + SUFFIX);
    }

    /** Whether a file sink created {@code file}. */
    static boolean owned(Path file) {
        return Files.exists(marker(file), LinkOption.NOFOLLOW_LINKS);
    }

    /** Whether a sink may truncate {@code file}: absent, empty, or created by a file sink. */
    static boolean mayTruncate(Path file) throws IOException {
        return !Files.exists(file, LinkOption.NOFOLLOW_LINKS) || owned(file)
                || Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.size(file) == 0;
    }

    /** Records that a sink created {@code file} (call right after creating it). */
    static void created(Path file) throws IOException {
        Path m = marker(file);
        if (!Files.exists(m, LinkOption.NOFOLLOW_LINKS)) {
            Files.createFile(m);
        }
    }

    /** Deletes a file a sink created, and its marker. */
    static void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(marker(file));
    }
}
