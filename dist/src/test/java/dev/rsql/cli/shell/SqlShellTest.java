package dev.rsql.cli.shell;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rsql sql} as a user drives it: a script on stdin (tableau, changelog and table modes over a file table,
 * the session's SHOW / DESCRIBE / SET / EXPLAIN, errors with their position), and the interactive shell on a
 * pseudo-terminal, where Ctrl-C ends a live query over an unbounded datagen table and the shell goes on.
 */
class SqlShellTest {

    private static final List<String> CITIES = List.of("Berlin", "Paris", "Rome", "Oslo", "Lima", "Kyiv", "Quito");
    private static final String QUERY = "SELECT city, COUNT(*) AS c, SUM(n) AS s FROM f GROUP BY city;\n";

    @TempDir
    Path home;

    @Test
    void aScriptOnStdinShowsTheChangingRowsOfAGroupByInEachResultMode() throws Exception {
        Random random = new Random(20261201);
        Map<String, List<Long>> expected = new TreeMap<>();
        StringBuilder csv = new StringBuilder();
        long[][] sums = new long[CITIES.size()][2];
        for (int i = 0; i < 400; i++) {
            int city = random.nextInt(CITIES.size());
            int n = random.nextInt(100) - 20;
            csv.append(CITIES.get(city)).append(',').append(n).append('\n');
            sums[city][0]++;
            sums[city][1] += n;
        }
        for (int i = 0; i < CITIES.size(); i++) {
            if (sums[i][0] > 0) {
                expected.put(CITIES.get(i), List.of(sums[i][0], sums[i][1]));
            }
        }
        Path data = Files.writeString(home.resolve("cities.csv"), csv);
        try (ShellProcess shell = ShellProcess.piped(home)) {
            shell.send("CREATE TABLE f (city STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '" + data
                    + "', 'format' = 'csv');\n"
                    + "SHOW TABLES;\nDESCRIBE f;\n" + QUERY
                    + "SET 'sql-client.execution.result-mode' = 'changelog';\n" + QUERY
                    + "SET 'sql-client.execution.result-mode' = 'table';\n" + QUERY
                    + "SET;\n"
                    + "CREATE TABLE g (x INT) WITH ('connector' = 'datagen',\n  'number-of-rows' = 'ten');\n"
                    + "SELECT city,\n  nope FROM f;\n"
                    + "SHOW TABLES;\n"
                    + "EXPLAIN " + QUERY
                    + "QUIT;\n");
            shell.closeInput();
            shell.await("\\[INFO\\] Table has been created");
            int from = shell.position();
            shell.await("1 row in set");
            assertTrue(shell.since(from).contains("|          f |"), shell.since(from));
            from = shell.position();
            shell.await("2 rows in set");
            assertTrue(shell.since(from).contains("| city | STRING | TRUE |"), shell.since(from));
            assertTrue(shell.since(from).contains("|    n |    INT | TRUE |"), shell.since(from));

            from = shell.position();
            Matcher end = shell.await("Received a total of (\\d+) rows \\(its input ended\\)");
            assertReplaysTo(expected, shell.since(from), Integer.parseInt(end.group(1)),
                    Pattern.compile("(?m)^\\| ([+-][IUD]) \\| +(\\w+) \\| +(-?\\d+) \\| +(-?\\d+) \\|$"));

            shell.await("Session property has been set");
            from = shell.position();
            end = shell.await("Received a total of (\\d+) rows \\(its input ended\\)");
            assertReplaysTo(expected, shell.since(from), Integer.parseInt(end.group(1)),
                    Pattern.compile("(?m)^([+-][IUD])\\[(\\w+), (-?\\d+), (-?\\d+)]$"));

            shell.await("Session property has been set");
            from = shell.position();
            end = shell.await("(\\d+) rows in the result after (\\d+) changes \\(its input ended\\)");
            Map<String, List<Long>> table = new TreeMap<>();
            Matcher row = Pattern.compile("(?m)^\\| +(\\w+) \\| +(-?\\d+) \\| +(-?\\d+) \\|$").matcher(shell.since(from));
            while (row.find()) {
                table.put(row.group(1), List.of(Long.parseLong(row.group(2)), Long.parseLong(row.group(3))));
            }
            assertEquals(expected, table);
            assertEquals(expected.size(), Integer.parseInt(end.group(1)));

            from = shell.position();
            shell.await("1 row in set");
            assertTrue(shell.since(from).contains("| sql-client.execution.result-mode | table |"), shell.since(from));
            // positions are those in the input: the bad option is on line 11, the unknown column on line 13
            shell.await("\\[ERROR] line 11, column 3: table g: option 'number-of-rows' must be an integer, got 'ten'");
            shell.await("\\[ERROR] line 13, column 3: Column 'nope' not found");
            from = shell.position();
            shell.await("1 row in set");   // g was refused, so not kept
            assertTrue(shell.since(from).contains("|          f |"), shell.since(from));
            shell.await("GroupAggregate group by \\[city\\]");
            shell.await("Physical plan");
            assertEquals(1, shell.exitCode(), "a statement failed: exit code 1");
            assertTrue(!shell.output().contains("\tat "), "no stack trace:\n" + shell.output());
        }
    }

    /** Replays the changes the pattern finds (op, city, count, sum) and compares the result with the expected one. */
    private static void assertReplaysTo(Map<String, List<Long>> expected, String output, int total, Pattern change) {
        Map<String, List<Long>> result = new TreeMap<>();
        Matcher m = change.matcher(output);
        int changes = 0;
        int retractions = 0;
        while (m.find()) {
            changes++;
            List<Long> values = List.of(Long.parseLong(m.group(3)), Long.parseLong(m.group(4)));
            switch (m.group(1)) {
                case "+I":
                case "+U":
                    assertTrue(result.put(m.group(2), values) == null, "two rows for " + m.group(2) + ":\n" + output);
                    break;
                default:
                    retractions++;
                    assertEquals(values, result.remove(m.group(2)), "retracts what is not there:\n" + output);
            }
        }
        assertEquals(total, changes, output);
        assertTrue(retractions > 0, "the rows change:\n" + output);
        assertEquals(expected, result);
    }

    @Test
    void maxRowsEndsASelectOverAnUnboundedSource() throws Exception {
        try (ShellProcess shell = ShellProcess.piped(home, "--max-rows", "5")) {
            shell.send("CREATE TABLE g (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');\n"
                    + "SELECT k FROM g;\nSHOW TABLES;\n");
            shell.closeInput();
            shell.await("Received a total of 5 rows \\(--max-rows 5 reached\\)");
            shell.await("1 row in set");
            assertEquals(0, shell.exitCode());
        }
    }

    @Test
    void sigintEndsTheRunningQueryOfAScriptAndTheScriptGoesOn() throws Exception {
        try (ShellProcess shell = ShellProcess.piped(home)) {
            shell.send("CREATE TABLE g (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20');\n"
                    + "SET 'sql-client.execution.result-mode' = 'changelog';\nSELECT k FROM g;\nSHOW TABLES;\n");
            shell.closeInput();
            shell.await("(?m)^\\+I\\[-?\\d+]$");
            shell.interrupt();
            shell.await("Received a total of \\d+ rows? \\(stopped by Ctrl-C\\)");
            shell.await("1 row in set");
            assertEquals(0, shell.exitCode());
        }
    }

    @Test
    void ctrlCEndsTheLiveQueryOnTheTerminalAndNotTheShell() throws Exception {
        Path history = home.resolve("history");
        try (ShellProcess shell = ShellProcess.onTerminal(home, "--history", history.toString())) {
            shell.await("rsql> ");
            // Enter before the ';' continues the statement on the next line
            shell.send("CREATE TABLE g (id INT, k INT) WITH ('connector' = 'datagen',\r");
            shell.await("-> ");
            shell.send("'rows-per-second' = '20', 'fields.k.min' = '1', 'fields.k.max' = '3');\r");
            shell.await("Table has been created");
            shell.send("SELECT k, COUNT(*) AS c FROM g GROUP BY k;\r");
            String redraw = "Current result: \\d+ rows after (\\d+) changes";
            int first = Integer.parseInt(shell.await(redraw).group(1));
            while (Integer.parseInt(shell.await(redraw).group(1)) <= first) {
                // the table is redrawn as rows arrive (each wait fails after its timeout)
            }
            shell.send("\u0003");
            Matcher end = shell.await("(\\d+) rows? in the result after (\\d+) changes \\(stopped by Ctrl-C\\)");
            String output = shell.output();
            String lastTable = output.substring(output.lastIndexOf("Current result:"), output.lastIndexOf(end.group()));
            Matcher row = Pattern.compile("(?m)^\\| +(\\d+) \\| +(\\d+) \\|$").matcher(lastTable);
            int rows = 0;
            long counted = 0;
            while (row.find()) {
                rows++;
                assertTrue(List.of("1", "2", "3").contains(row.group(1)), lastTable);
                counted += Long.parseLong(row.group(2));
            }
            assertEquals(Integer.parseInt(end.group(1)), rows, lastTable);
            // a key's first row is one change (+I), each later one two (-U, +U)
            assertEquals((Long.parseLong(end.group(2)) + rows) / 2, counted, lastTable);

            shell.send("SHOW TABLES;\r");
            shell.await("1 row in set");
            shell.send("SELECT nope FROM g;\r");
            shell.await("\\[ERROR] line 1, column 8: Column 'nope' not found");
            shell.await("rsql> ");
            shell.send("SELECT never ended");
            shell.await("never ended");
            shell.send("\u0003");   // Ctrl-C while typing drops the line
            shell.await("rsql> ");
            shell.send("QUIT;\r");
            assertEquals(0, shell.exitCode());
        }
        String saved = Files.readString(history);
        assertTrue(saved.contains("SHOW TABLES;") && !saved.contains("never ended"), saved);
    }
}
