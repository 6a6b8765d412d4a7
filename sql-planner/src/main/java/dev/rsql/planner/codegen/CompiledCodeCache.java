package dev.rsql.planner.codegen;

import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.spi.ExtClassLoader;
import org.apache.calcite.runtime.SqlFunctions;
import org.codehaus.janino.SimpleCompiler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The classes compiled from a job's generated source, kept in a directory so that a script planned again (a restart,
 * another instance on this machine, {@code check} before {@code run}) loads them instead of compiling: compiling was
 * the largest step of planning a 40-INSERT script, about a fifth of a second of its start-up. An entry holds the
 * source and a fingerprint of everything the code can link against (the JVM, and path, size and modification time of
 * the class path's and {@code ext/}'s jars) next to the classes, and is used only if both are equal, so a changed
 * engine or UDF jar misses; the file's name is only a hash of them (not a cryptographic digest: that took tens of
 * milliseconds of a cold JVM). Code linking against class directories or class loaders of other kinds is not cached,
 * nor is code whose engine jars are not on the fingerprinted path (listed by a manifest's {@code Class-Path}).
 * A file is written whole under a temporary name and then renamed; one that cannot be read is a miss. The least
 * recently used files beyond {@link #MAX_FILES} are deleted.
 */
public final class CompiledCodeCache {

    private static final Logger LOG = LoggerFactory.getLogger(CompiledCodeCache.class);
    static final int MAX_FILES = 64;
    private static final int MAGIC = 0x52_53_43_32;   // "RSC2"
    private static final String SUFFIX = ".classes";

    /** Classes of the jars generated code links against, whichever way the application was started. */
    private static final List<Class<?>> ENGINE_CLASSES = List.of(CompiledCodeCache.class, CalcFunction.class,
            SqlFunctions.class, SimpleCompiler.class);

    private final Path dir;

    public CompiledCodeCache(Path dir) {
        this.dir = dir;
    }

    /** What an entry is found by ({@link #key}): its file's name, and the fingerprint and source it must hold. */
    public record Key(String fileName, String fingerprint, String source) {
    }

    /** The classes kept for {@code key}, or null. */
    public Map<String, byte[]> get(Key key) {
        Path file = dir.resolve(key.fileName());
        if (!Files.isRegularFile(file)) {
            return null;
        }
        Map<String, byte[]> classes;
        try {
            classes = read(Files.readAllBytes(file), key);
        } catch (IOException | RuntimeException e) {
            LOG.warn("compiled code cache: cannot read {}, compiling instead: {}", file, e.toString());
            return null;
        }
        if (classes == null) {
            return null;    // another source or other jars under the same name: the put that follows replaces it
        }
        try {
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));   // recently used
        } catch (IOException e) {
            // a read-only cache still serves
        }
        return classes;
    }

    /** Keeps classes for {@code key}; a failure to write only costs the next start the compile. */
    public void put(Key key, Map<String, byte[]> classes) {
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "compiling", ".tmp");
            try {
                Files.write(tmp, write(key, classes));
                Files.move(tmp, dir.resolve(key.fileName()), StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            trim();
        } catch (IOException e) {
            LOG.warn("compiled code cache: cannot write to {}: {}", dir, e.toString());
        }
    }

    /** Deletes the least recently used files beyond {@link #MAX_FILES}. */
    private void trim() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = new ArrayList<>(s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).toList());
        }
        if (files.size() <= MAX_FILES) {
            return;
        }
        files.sort(Comparator.comparingLong(f -> f.toFile().lastModified()));
        for (Path f : files.subList(0, files.size() - MAX_FILES)) {
            Files.deleteIfExists(f);
        }
    }

    /**
     * The entry of {@code source} compiled against the classes {@code parent} sees, or null if those cannot be
     * fingerprinted.
     */
    public static Key key(String source, ClassLoader parent) {
        return key(source, parent, ENGINE_CLASSES);
    }

    /**
     * As {@link #key(String, ClassLoader)}; null also if the jar of one of {@code engineClasses} is not among the
     * fingerprinted ones: a jar listed by another jar's manifest {@code Class-Path} (an application started with
     * {@code -jar}) is not on {@code java.class.path}, and an upgrade of it would go unnoticed.
     */
    static Key key(String source, ClassLoader parent, List<Class<?>> engineClasses) {
        StringBuilder fingerprint = new StringBuilder(System.getProperty("java.home")).append('\n')
                .append(System.getProperty("java.vm.version")).append('\n');
        Map<String, List<File>> byName = new HashMap<>();
        for (ClassLoader l = parent; l != null && l != ClassLoader.getPlatformClassLoader(); l = l.getParent()) {
            List<Path> jars = jarsOf(l);
            if (jars == null) {
                return null;
            }
            for (Path jar : jars) {
                File f = jar.toFile();
                if (!f.isFile()) {
                    return null;     // a class directory: its files may change without it changing
                }
                byName.computeIfAbsent(f.getName(), n -> new ArrayList<>()).add(f);
                fingerprint.append(f.getAbsolutePath()).append('\t').append(f.length()).append('\t')
                        .append(f.lastModified()).append('\n');
            }
        }
        for (Class<?> c : engineClasses) {
            if (!fingerprinted(c, byName)) {
                return null;
            }
        }
        String fp = fingerprint.toString();
        String name = Integer.toHexString(fp.hashCode()) + "-" + Integer.toHexString(source.hashCode()) + "-"
                + Integer.toHexString(source.length()) + SUFFIX;
        return new Key(name, fp, source);
    }

    /** Whether the jar {@code c} came from is one of {@code jars} (by name), symbolic links resolved. */
    private static boolean fingerprinted(Class<?> c, Map<String, List<File>> jars) {
        CodeSource code = c.getProtectionDomain().getCodeSource();
        try {
            if (code == null || code.getLocation() == null) {
                return false;
            }
            File from = new File(code.getLocation().toURI()).getCanonicalFile();
            for (File f : jars.getOrDefault(from.getName(), List.of())) {
                if (f.getCanonicalFile().equals(from)) {
                    return true;
                }
            }
            return false;
        } catch (URISyntaxException | IllegalArgumentException | IOException e) {
            return false;
        }
    }

    private static List<Path> jarsOf(ClassLoader loader) {
        if (loader == ClassLoader.getSystemClassLoader()) {
            List<Path> jars = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    jars.add(Path.of(entry));
                }
            }
            return jars;
        }
        if (loader instanceof ExtClassLoader ext) {
            return ext.jars();
        }
        if (loader instanceof URLClassLoader urls) {
            List<Path> jars = new ArrayList<>();
            for (URL url : urls.getURLs()) {
                if (!"file".equals(url.getProtocol())) {
                    return null;
                }
                try {
                    jars.add(Path.of(url.toURI()));
                } catch (URISyntaxException | IllegalArgumentException e) {
                    return null;
                }
            }
            return jars;
        }
        return null;
    }

    private static byte[] write(Key key, Map<String, byte[]> classes) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            writeString(out, key.fingerprint());
            writeString(out, key.source());
            out.writeInt(classes.size());
            for (Map.Entry<String, byte[]> c : classes.entrySet()) {
                out.writeUTF(c.getKey());
                out.writeInt(c.getValue().length);
                out.write(c.getValue());
            }
        }
        return bytes.toByteArray();
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /** The classes in {@code file}, or null if it was written for another fingerprint or source. */
    private static Map<String, byte[]> read(byte[] file, Key key) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(file))) {
            if (in.readInt() != MAGIC) {
                throw new IOException("not a compiled code file");
            }
            if (!readString(in).equals(key.fingerprint()) || !readString(in).equals(key.source())) {
                return null;
            }
            int n = in.readInt();
            Map<String, byte[]> classes = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                String name = in.readUTF();
                classes.put(name, readBytes(in));
            }
            if (in.read() != -1) {
                throw new IOException("trailing bytes");
            }
            return classes;
        }
    }

    private static String readString(DataInputStream in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("truncated");
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }
}
