package dev.rsql.planner.codegen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link CompiledCodeCache}: an entry is found again for the same source and jars, missed when the source or a jar
 * changes (also under the same file name), not made for class directories; a damaged file is a miss; the least
 * recently used files go first.
 */
class CompiledCodeCacheTest {

    @TempDir
    Path tmp;

    /** A loader over one jar, under the platform loader (which the key leaves to the JVM's version). */
    private static URLClassLoader loaderOf(Path entry) throws Exception {
        return new URLClassLoader(new URL[] {entry.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    }

    /** A key with no engine classes to find (the tests' own come from class directories). */
    private static CompiledCodeCache.Key key(String source, ClassLoader loader) {
        return CompiledCodeCache.key(source, loader, List.of());
    }

    private Path jar(String name) throws Exception {
        Path jar = tmp.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.setComment(name);
        }
        return jar;
    }

    @Test
    void sameSourceAndJarsFindTheEntryAndAChangeOfEitherMisses() throws Exception {
        Path jar = jar("udf.jar");
        CompiledCodeCache cache = new CompiledCodeCache(tmp.resolve("cache"));
        Map<String, byte[]> classes = new LinkedHashMap<>();
        classes.put("gen.A", new byte[] {1, 2, 3});
        classes.put("gen.A$Inner", new byte[0]);
        CompiledCodeCache.Key key;
        try (URLClassLoader loader = loaderOf(jar)) {
            key = key("class A {}", loader);
            assertNotNull(key);
            assertEquals(key, key("class A {}", loader));
            assertNull(cache.get(key));
            cache.put(key, classes);
            Map<String, byte[]> read = cache.get(key("class A {}", loader));
            assertEquals(classes.keySet(), read.keySet());
            assertArrayEquals(new byte[] {1, 2, 3}, read.get("gen.A"));
            assertNull(cache.get(key("class B {}", loader)), "another source");
        }
        Files.write(jar, "a longer, different jar".getBytes(StandardCharsets.UTF_8));
        try (URLClassLoader loader = loaderOf(jar)) {
            assertNull(cache.get(key("class A {}", loader)), "a rewritten jar");
        }
        Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000_000_000L));
        try (URLClassLoader loader = loaderOf(jar)) {
            cache.put(key("class A {}", loader), classes);
            Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000_001_000L));
            assertNull(cache.get(key("class A {}", loader)), "a jar of the same size, touched");
        }
    }

    @Test
    void anotherSourceOrFingerprintUnderTheSameFileNameIsAMiss() {
        CompiledCodeCache cache = new CompiledCodeCache(tmp.resolve("cache"));
        cache.put(new CompiledCodeCache.Key("same.classes", "jars 1", "class A {}"), Map.of("gen.A", new byte[] {1}));
        assertNotNull(cache.get(new CompiledCodeCache.Key("same.classes", "jars 1", "class A {}")));
        assertNull(cache.get(new CompiledCodeCache.Key("same.classes", "jars 1", "class B {}")));
        assertNull(cache.get(new CompiledCodeCache.Key("same.classes", "jars 2", "class A {}")));
    }

    @Test
    void codeLinkingAgainstClassDirectoriesIsNotCached() throws Exception {
        Path classes = Files.createDirectory(tmp.resolve("classes"));
        try (URLClassLoader loader = loaderOf(classes)) {
            assertNull(key("class A {}", loader));
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar("x.jar").toUri().toURL()},
                loaderOf(classes))) {
            assertNull(key("class A {}", loader), "a directory further up the chain");
        }
    }

    @Test
    void codeWhoseEngineJarsAreNotOnTheFingerprintedPathIsNotCached() throws Exception {
        Path jar = jar("app.jar");   // as an application started with -jar, its engine jars in its manifest
        try (URLClassLoader loader = loaderOf(jar)) {
            assertNotNull(key("class A {}", loader));
            assertNull(CompiledCodeCache.key("class A {}", loader, List.of(CompiledCodeCache.class)));
            assertNull(CompiledCodeCache.key("class A {}", loader), "the engine's own classes: not in app.jar");
        }
    }

    @Test
    void aDamagedFileIsAMissAndIsReplacedByTheNextPut() throws Exception {
        Path dir = tmp.resolve("cache");
        CompiledCodeCache cache = new CompiledCodeCache(dir);
        CompiledCodeCache.Key key = new CompiledCodeCache.Key("k.classes", "jars", "class A {}");
        cache.put(key, Map.of("gen.A", new byte[] {7}));
        Path file = dir.resolve("k.classes");
        byte[] whole = Files.readAllBytes(file);
        for (int cut : new int[] {0, 3, 8, 20, whole.length - 1}) {
            Files.write(file, java.util.Arrays.copyOf(whole, cut));
            assertNull(cache.get(key), "cut at " + cut);
        }
        byte[] longLength = whole.clone();
        longLength[4] = 0x7f;   // the fingerprint's length, past the end
        Files.write(file, longLength);
        assertNull(cache.get(key), "a length past the end");
        cache.put(key, Map.of("gen.A", new byte[] {7}));
        assertArrayEquals(new byte[] {7}, cache.get(key).get("gen.A"));
    }

    @Test
    void theLeastRecentlyUsedFilesGoBeyondTheLimit() throws Exception {
        Path dir = tmp.resolve("cache");
        CompiledCodeCache cache = new CompiledCodeCache(dir);
        int n = CompiledCodeCache.MAX_FILES;
        for (int i = 0; i < n; i++) {
            cache.put(key(i), Map.of("gen.A", new byte[] {(byte) i}));
            Files.setLastModifiedTime(dir.resolve(key(i).fileName()), FileTime.fromMillis(1_000_000L * (i + 1)));
        }
        assertNotNull(cache.get(key(0)));     // used now: the most recent
        cache.put(key(n), Map.of("gen.A", new byte[] {1}));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(n, files.count());
        }
        assertNotNull(cache.get(key(0)));
        assertNull(cache.get(key(1)), "the least recently used");
        assertNotNull(cache.get(key(2)));
        assertNotNull(cache.get(key(n)));
    }

    private static CompiledCodeCache.Key key(int i) {
        return new CompiledCodeCache.Key("k" + i + ".classes", "jars", "class A" + i + " {}");
    }
}
