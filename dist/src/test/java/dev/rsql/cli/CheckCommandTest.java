package dev.rsql.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rsql check}: one line per script, OK or ERROR with the line and column to blame, never a stack trace. */
class CheckCommandTest {

    /** Runs {@code rsql --home home check args...}; returns the exit code and the printed lines. */
    static Result check(Path home, String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = System.out;
        int code;
        try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            String[] all = new String[args.length + 3];
            all[0] = "--home";
            all[1] = home.toString();
            all[2] = "check";
            System.arraycopy(args, 0, all, 3, args.length);
            code = RsqlCli.execute(all);
        } finally {
            System.setOut(out);
        }
        // logback may print its own status lines on first use: the command's lines are those it starts
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("\tat ")), "a stack trace:\n" + String.join("\n", lines));
        return new Result(code, lines.stream().filter(l -> l.startsWith("OK ") || l.startsWith("ERROR ")).toList());
    }

    record Result(int code, List<String> lines) {
    }

    @Test
    void planTimeMistakesAreReportedWithTheirPosition(@TempDir Path home) throws Exception {
        Path jobs = Files.createDirectories(home.resolve("jobs"));
        String sink = "CREATE TABLE o (id BIGINT, city VARCHAR) WITH ('connector' = 'print');\n";
        String gen = "CREATE TABLE g (id BIGINT, city VARCHAR, n INT) WITH ('connector' = 'datagen');\n";
        Files.writeString(jobs.resolve("rows.sql"), "CREATE TABLE g (id BIGINT, city VARCHAR) WITH (\n"
                + "  'connector' = 'datagen',\n  'number-of-rows' = 'ten');\n" + sink
                + "INSERT INTO o SELECT id, city FROM g;\n");
        Files.writeString(jobs.resolve("nopath.sql"), "CREATE TABLE f (id BIGINT, city VARCHAR) WITH "
                + "('connector' = 'filesystem');\n" + sink + "INSERT INTO o SELECT id, city FROM f;\n");
        Files.writeString(jobs.resolve("types.sql"), gen + sink + "INSERT INTO o\nSELECT city, city FROM g;\n");
        Files.writeString(jobs.resolve("count.sql"), gen + sink + "INSERT INTO o SELECT id, city, n FROM g;\n");
        Files.writeString(jobs.resolve("zero.sql"), gen + sink + "INSERT INTO o SELECT id, city FROM g\n"
                + "WHERE n > 10 / 0;\n");
        Files.writeString(jobs.resolve("good.sql"), gen + sink + "INSERT INTO o SELECT n, city FROM g;\n");

        Result r = check(home);
        assertEquals(1, r.code(), String.join("\n", r.lines()));
        assertEquals(6, r.lines().size(), String.join("\n", r.lines()));
        assertLine(r, "count.sql: line 3, column 15: INSERT INTO o: the query gives 3 columns but table o has 2");
        assertLine(r, "nopath.sql: line 1, column 1: table f: option 'path' is required");
        assertLine(r, "rows.sql: line 3, column 3: table g: option 'number-of-rows' must be an integer, got 'ten'");
        assertLine(r, "types.sql: line 4, column 8: INSERT INTO o: column id (position 1) is BIGINT and the query"
                + " gives it STRING");
        assertLine(r, "zero.sql: line 4, column 11: the constant expression 10 / 0 cannot be evaluated");
        assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("OK ") && l.endsWith("good.sql")), r.lines()
                .toString());
    }

    private static void assertLine(Result r, String fragment) {
        assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("ERROR ") && l.contains(fragment)),
                "no line with '" + fragment + "' in:\n" + String.join("\n", r.lines()));
    }

    @Test
    void theExampleJobsPassCheck() {
        Path home = Path.of("..").toAbsolutePath().normalize();
        Result r = check(home);
        assertEquals(0, r.code(), String.join("\n", r.lines()));
        assertTrue(r.lines().size() >= 5 && r.lines().stream().allMatch(l -> l.startsWith("OK ")),
                String.join("\n", r.lines()));
    }
}
