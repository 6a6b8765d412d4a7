package dev.rsql.cli.shell;

import dev.rsql.runtime.text.DisplayWidth;

import java.util.List;

/**
 * Boxed tables as Flink's SQL client draws them: {@code +---+} borders, values right-aligned, a value wider than its
 * column cut with {@code ...}. Widths are terminal columns: a Chinese character takes two.
 */
final class TableText {

    private final int[] widths;

    TableText(int[] widths) {
        this.widths = widths.clone();
    }

    /** Columns as wide as their widest header or value. */
    static TableText fitting(List<String> headers, List<List<String>> rows) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = DisplayWidth.of(headers.get(i));
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], DisplayWidth.of(row.get(i)));
            }
        }
        return new TableText(widths);
    }

    String border() {
        StringBuilder sb = new StringBuilder("+");
        for (int w : widths) {
            sb.append("-".repeat(w + 2)).append('+');
        }
        return sb.toString();
    }

    String row(List<String> values) {
        StringBuilder sb = new StringBuilder("|");
        for (int i = 0; i < widths.length; i++) {
            String v = values.get(i);
            int w = DisplayWidth.of(v);
            if (w > widths[i]) {
                v = widths[i] > 3 ? DisplayWidth.cut(v, widths[i] - 3) + "..." : DisplayWidth.cut(v, widths[i]);
                w = DisplayWidth.of(v);
            }
            sb.append(' ').append(" ".repeat(widths[i] - w)).append(v).append(" |");
        }
        return sb.toString();
    }

    /** The whole table: border, header, border, rows, border (no rows: no last part). */
    String render(List<String> headers, List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append(border()).append('\n').append(row(headers)).append('\n').append(border()).append('\n');
        for (List<String> r : rows) {
            sb.append(row(r)).append('\n');
        }
        if (!rows.isEmpty()) {
            sb.append(border()).append('\n');
        }
        return sb.toString();
    }

    /** A table fitting its content followed by Flink's {@code N rows in set}. */
    static String withCount(List<String> headers, List<List<String>> rows) {
        return fitting(headers, rows).render(headers, rows) + (rows.isEmpty() ? "Empty set"
                : rows.size() + (rows.size() == 1 ? " row" : " rows") + " in set") + "\n";
    }
}
