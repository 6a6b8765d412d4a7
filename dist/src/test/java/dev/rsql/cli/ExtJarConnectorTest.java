package dev.rsql.cli;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A connector compiled during the test, packed into a jar in ext/, found by ServiceLoader and used by a SQL job. */
class ExtJarConnectorTest {

    static final String SINK_SOURCE = "package com.example.ext;\n"
            + "import dev.rsql.runtime.connector.*;\n"
            + "import dev.rsql.runtime.data.Row;\n"
            + "import java.nio.file.*;\n"
            + "import java.util.*;\n"
            + "/** Writes the first column of each row, upper-cased, one per line, to option 'path'. */\n"
            + "public class UpperSinkFactory implements ConnectorFactory {\n"
            + "  public String identifier() { return \"upper\"; }\n"
            + "  public Sink createSink(ConnectorContext ctx) {\n"
            + "    Path path = Paths.get(ctx.options().require(\"path\"));\n"
            + "    return new Sink() {\n"
            + "      public SinkWriter createWriter(SinkWriterContext w) {\n"
            + "        return new SinkWriter() {\n"
            + "          final List<String> lines = new ArrayList<>();\n"
            + "          public void write(Row row) { lines.add(String.valueOf(row.get(0)).toUpperCase()); }\n"
            + "          public void flush() throws Exception {\n"
            + "            synchronized (UpperSinkFactory.class) {\n"
            + "              Files.write(path, lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND);\n"
            + "            }\n"
            + "            lines.clear();\n"
            + "          }\n"
            + "          public void close() throws Exception { flush(); }\n"
            + "        };\n"
            + "      }\n"
            + "      public void close() { }\n"
            + "    };\n"
            + "  }\n"
            + "}\n";

    @Test
    void aConnectorInAnExtJarIsFoundAndUsed(@TempDir Path home) throws Exception {
        Path src = home.resolve("src/com/example/ext/UpperSinkFactory.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, SINK_SOURCE);
        Path classes = home.resolve("classes");
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                src.toString());
        assertEquals(0, rc, "the test connector compiles");
        Path ext = home.resolve("ext");
        Files.createDirectories(ext);
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(ext.resolve("upper-connector.jar")))) {
            add(jar, "com/example/ext/UpperSinkFactory.class",
                    Files.readAllBytes(classes.resolve("com/example/ext/UpperSinkFactory.class")));
            for (String inner : List.of("UpperSinkFactory$1.class", "UpperSinkFactory$1$1.class")) {
                add(jar, "com/example/ext/" + inner, Files.readAllBytes(classes.resolve("com/example/ext/" + inner)));
            }
            add(jar, "META-INF/services/dev.rsql.runtime.connector.ConnectorFactory",
                    "com.example.ext.UpperSinkFactory\n".getBytes(StandardCharsets.UTF_8));
        }

        Path out = home.resolve("out.txt");
        String script = "CREATE TABLE names (name VARCHAR) WITH ('connector' = 'datagen', 'number-of-rows' = '3',"
                + " 'fields.name.values' = 'ann', seed = '1');\n"
                + "CREATE TABLE shout (name VARCHAR) WITH ('connector' = 'upper', 'path' = '" + out + "');\n"
                + "INSERT INTO shout SELECT name FROM names;\n";
        EngineHome engineHome = new EngineHome(home, name -> null);
        ClassLoader loader = engineHome.extClassLoader(getClass().getClassLoader());
        Options config = new Options(engineHome.loadConfig());
        JobInstance job = new JobInstance(new ScriptPlanner(new PlannerContext(config, loader, n -> null))
                .plan("ext", script).graph(), new EngineContext(config, loader));
        job.start();
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)));
        assertEquals(JobInstance.State.FINISHED, job.state(), String.valueOf(job.failure()));
        assertEquals(List.of("ANN", "ANN", "ANN"), Files.readAllLines(out));
    }

    private static void add(JarOutputStream jar, String name, byte[] bytes) throws Exception {
        jar.putNextEntry(new JarEntry(name));
        jar.write(bytes);
        jar.closeEntry();
    }
}
