package dev.rsql.cli.shell;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.types.RowType;

import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/** Tableau mode: each change appended as a row of a boxed table, its kind in the first column {@code op}. */
final class TableauView extends ResultView {

    private final PrintWriter out;
    private TableText table;

    TableauView(PrintWriter out) {
        this.out = out;
    }

    @Override
    void begin(RowType rowType, ZoneId timeZone) {
        super.begin(rowType, timeZone);
        int[] widths = new int[rowType.size() + 1];
        widths[0] = 2;
        List<String> header = new ArrayList<>(List.of("op"));
        for (int i = 0; i < rowType.size(); i++) {
            widths[i + 1] = width(rowType.name(i), rowType.type(i));
            header.add(rowType.name(i));
        }
        table = new TableText(widths);
        out.println(table.border());
        out.println(table.row(header));
        out.println(table.border());
        out.flush();
    }

    @Override
    void show(Row row) {
        List<String> cells = new ArrayList<>(row.arity() + 1);
        cells.add(row.kind().shortString());
        cells.addAll(values(row, "<NULL>"));
        out.println(table.row(cells));
    }

    @Override
    void idle() {
        out.flush();
    }

    @Override
    void end(String why) {
        if (table != null && changes() > 0) {
            out.println(table.border());
        }
        out.println(summary(changes(), why));
        out.flush();
    }
}
