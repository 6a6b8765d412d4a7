package dev.rsql.runtime.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Bytes under a directory, a file with several names counted once: a RocksDB checkpoint hard-links the SST files of
 * the working copy, so a job's state would otherwise look up to twice its size.
 */
final class DirectorySize {

    private DirectorySize() {
    }

    static long of(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        Set<Object> seen = new HashSet<>();
        try (Stream<Path> files = Files.walk(dir)) {
            return files.mapToLong(p -> {
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    // No file key where the file system has no inode numbers: count every name.
                    return a.isRegularFile() && (a.fileKey() == null || seen.add(a.fileKey())) ? a.size() : 0;
                } catch (IOException e) {
                    return 0; // deleted meanwhile (a compaction, an older checkpoint)
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }
}
