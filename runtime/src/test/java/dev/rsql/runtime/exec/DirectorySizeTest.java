package dev.rsql.runtime.exec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DirectorySizeTest {

    @Test
    void aHardLinkedFileCountsOnce(@TempDir Path dir) throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path checkpoint = Files.createDirectories(dir.resolve("checkpoints/chk-1"));
        Files.write(work.resolve("000007.sst"), new byte[1000]);
        Files.createLink(checkpoint.resolve("000007.sst"), work.resolve("000007.sst"));
        Files.write(checkpoint.resolve("MANIFEST-000009"), new byte[30]);

        assertEquals(1030, DirectorySize.of(dir));
        assertEquals(0, DirectorySize.of(dir.resolve("missing")));
    }
}
