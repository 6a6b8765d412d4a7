package dev.rsql.cli.shell;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TableTextTest {

    @Test
    void chineseValuesKeepTheColumnsAligned() {
        String table = TableText.withCount(List.of("城市", "n"), List.of(List.of("北京🚀", "1"), List.of("x", "22")));
        assertEquals(""
                + "+--------+----+\n"
                + "|   城市 |  n |\n"
                + "+--------+----+\n"
                + "| 北京🚀 |  1 |\n"
                + "|      x | 22 |\n"
                + "+--------+----+\n"
                + "2 rows in set\n", table);
    }

    @Test
    void aWideValueIsCutBetweenCharacters() {
        TableText text = new TableText(new int[] {6});
        assertEquals("|  北... |", text.row(List.of("北京上海")));
        assertEquals("| 12345... |", new TableText(new int[] {8}).row(List.of("1234567890")));
    }
}
