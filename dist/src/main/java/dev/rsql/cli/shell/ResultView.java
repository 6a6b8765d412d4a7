package dev.rsql.cli.shell;

import dev.rsql.runtime.connector.print.PrintConnectorFactory;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/** Shows the rows of a live query as they arrive (see {@link ResultMode}). Used by the shell's thread only. */
abstract class ResultView {

    private RowType type;
    private ZoneId zone;
    private long changes;

    /** The result's columns are known: the job created its sink. */
    void begin(RowType rowType, ZoneId timeZone) {
        this.type = rowType;
        this.zone = timeZone;
    }

    final void add(Row row) {
        changes++;
        show(row);
    }

    abstract void show(Row row);

    /** Between batches of rows (and every 100 ms while none come): a view may redraw or flush now. */
    void idle() {
    }

    /** The query ended ({@code why}: its input ended, Ctrl-C, the row limit): the view's last words. */
    abstract void end(String why);

    RowType type() {
        return type;
    }

    long changes() {
        return changes;
    }

    /** The values of a row as text; SQL NULL as {@code nullText}. */
    List<String> values(Row row, String nullText) {
        List<String> values = new ArrayList<>(row.arity());
        for (int i = 0; i < row.arity(); i++) {
            Object v = row.get(i);
            if (v == null) {
                values.add(nullText);
            } else {
                StringBuilder sb = new StringBuilder();
                PrintConnectorFactory.appendValue(sb, type.type(i), v, zone);
                values.add(sb.toString());
            }
        }
        return values;
    }

    /** The width a column of this type gets in tableau mode (as Flink's client, at most 30 characters). */
    static int width(String name, DataType type) {
        int w;
        switch (type.kind()) {
            case BOOLEAN: w = 5; break;
            case TINYINT: w = 4; break;
            case SMALLINT: w = 6; break;
            case INT: w = 11; break;
            case BIGINT: w = 20; break;
            case FLOAT: w = 15; break;
            case DOUBLE: w = 24; break;
            case DECIMAL: w = type.precision() + 2; break;
            case DATE: w = 10; break;
            case TIME: w = 12; break;
            case TIMESTAMP:
            case TIMESTAMP_LTZ: w = 23; break;
            case CHAR:
            case VARCHAR: w = Math.min(type.precision(), 30); break;
            default: w = 30;
        }
        return Math.max(Math.max(name.length(), w), 6);   // "<NULL>"
    }

    static String summary(long changes, String why) {
        return "Received a total of " + changes + (changes == 1 ? " row" : " rows") + (why == null ? "" : " (" + why + ")");
    }
}
