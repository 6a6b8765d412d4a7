package dev.rsql.planner.functions;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Builds UDF jars during a test from the sources under test resources {@code udf/<name>/}. */
final class UdfJars {

    private UdfJars() {
    }

    /** Compiles {@code udf/<name>} against the test class path (which has the UDF API) into {@code dir/<name>.jar}. */
    static Path build(String name, Path dir) throws IOException, URISyntaxException {
        Path src = Paths.get(UdfJars.class.getResource("/udf/" + name).toURI());
        List<String> sources;
        try (Stream<Path> files = Files.walk(src)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted()
                    .collect(Collectors.toList());
        }
        Path classes = Files.createTempDirectory(dir, name + "-classes");
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), "-parameters", "-nowarn"));
        args.addAll(sources);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, args.toArray(new String[0])), "the " + name + " sources compile");
        Path jar = dir.resolve(name + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().collect(Collectors.toList())) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }
}
