package dev.rsql.cli.shell;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import org.jline.terminal.Terminal;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Table mode: the query's current result, materialized from its changes (+I and +U add a row, -U and -D remove the
 * last equal one) and redrawn on the terminal at most every {@link #REDRAW_MILLIS}; without a terminal it is
 * printed once, when the query ends.
 */
final class TableView extends ResultView {

    private static final long REDRAW_MILLIS = 200;
    private static final String HOME_AND_CLEAR = "\033[H\033[2J";

    private final PrintWriter out;
    private final Terminal terminal;
    private final List<Object[]> rows = new ArrayList<>();
    private boolean dirty;
    private boolean halfAnUpdate;
    private long drawnAt;

    /** @param terminal where to redraw, or null to print the result at the end only */
    TableView(PrintWriter out, Terminal terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    @Override
    void show(Row row) {
        if (row.kind().isAccumulate()) {
            rows.add(row.fields());
        } else {
            for (int i = rows.size() - 1; i >= 0; i--) {
                if (Arrays.deepEquals(rows.get(i), row.fields())) {
                    rows.remove(i);
                    break;
                }
            }
        }
        dirty = true;
        halfAnUpdate = row.kind() == RowKind.UPDATE_BEFORE;
    }

    @Override
    void idle() {
        // between an update's -U and its +U the row would blink out of the table
        if (terminal != null && dirty && !halfAnUpdate && System.currentTimeMillis() - drawnAt >= REDRAW_MILLIS) {
            out.print(HOME_AND_CLEAR);
            out.println("Current result: " + rows.size() + " rows after " + changes() + " changes"
                    + " (Ctrl-C ends the query)");
            draw(Math.max(1, terminal.getHeight() - 6));
            out.flush();
            dirty = false;
            drawnAt = System.currentTimeMillis();
        }
    }

    @Override
    void end(String why) {
        if (terminal != null) {
            dirty = true;
            halfAnUpdate = false;
            drawnAt = 0;
            idle();
        } else {
            draw(Integer.MAX_VALUE);
        }
        out.println(rows.size() + (rows.size() == 1 ? " row" : " rows") + " in the result after " + changes()
                + (changes() == 1 ? " change" : " changes") + (why == null ? "" : " (" + why + ")"));
        out.flush();
    }

    /** The first {@code limit} rows of the result as a boxed table. */
    private void draw(int limit) {
        if (type() == null) {
            return;
        }
        List<List<String>> shown = new ArrayList<>();
        for (int i = 0; i < rows.size() && i < limit; i++) {
            shown.add(values(new Row(RowKind.INSERT, rows.get(i)), "<NULL>"));
        }
        out.print(TableText.fitting(type().names(), shown).render(type().names(), shown));
        if (rows.size() > shown.size()) {
            out.println("... and " + (rows.size() - shown.size()) + " more rows");
        }
    }
}
