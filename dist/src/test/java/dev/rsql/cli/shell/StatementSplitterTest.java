package dev.rsql.cli.shell;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the shell's input is cut into statements, and where each starts. */
class StatementSplitterTest {

    @Test
    void semicolonsInLiteralsQuotedNamesAndCommentsDoNotEndAStatement() {
        String input = "SELECT 'a;b', `c;d`, \"e;f\" -- g;h\n FROM t /* i;\n j */ WHERE x = 'it''s;';\n"
                + "  -- only a comment;\n\n  SELECT 2;  SELECT";
        StatementSplitter.Split split = StatementSplitter.split(input);
        assertEquals(List.of(
                new Statement("SELECT 'a;b', `c;d`, \"e;f\" -- g;h\n FROM t /* i;\n j */ WHERE x = 'it''s;'", 1, 1),
                new Statement("SELECT 2", 6, 3)), split.statements());
        assertFalse(split.restIsBlank());
        assertEquals(new Statement("SELECT", 6, 14), StatementSplitter.last(input));
        assertTrue(StatementSplitter.split("SELECT 1; -- done\n").restIsBlank());
        assertFalse(StatementSplitter.split("SELECT 'open;").restIsBlank());
        assertNull(StatementSplitter.last("SELECT 1;  "));
    }

    @Test
    void aStatementKeepsItsPositionForTheParserAndSoDoesItsTail() {
        Statement s = new Statement("EXPLAIN\n  SELECT x", 3, 5);
        assertEquals("\n\n    EXPLAIN\n  SELECT x", s.positioned());
        assertEquals(new Statement("SELECT x", 4, 3), s.from("EXPLAIN\n  ".length()));
    }

    @Test
    void theLineReaderWaitsForTheSemicolonExceptAfterQuitAndHelp() {
        assertFalse(StatementLineParser.complete("CREATE TABLE t (\n  x INT)"));
        assertTrue(StatementLineParser.complete("CREATE TABLE t (x INT);"));
        assertTrue(StatementLineParser.complete("quit"));
        assertTrue(StatementLineParser.complete("  HELP "));
        assertTrue(StatementLineParser.complete(""));
        assertFalse(StatementLineParser.complete("SELECT ';'"));
    }
}
