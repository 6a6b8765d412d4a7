package dev.rsql.cli.shell;

import dev.rsql.runtime.data.Row;

import java.io.PrintWriter;

/** Changelog mode: each change on its own line as Flink's print sink writes it, e.g. {@code -U[Berlin, 3]}. */
final class ChangelogView extends ResultView {

    private final PrintWriter out;

    ChangelogView(PrintWriter out) {
        this.out = out;
    }

    @Override
    void show(Row row) {
        out.println(row.kind().shortString() + "[" + String.join(", ", values(row, "null")) + "]");
    }

    @Override
    void idle() {
        out.flush();
    }

    @Override
    void end(String why) {
        out.println(summary(changes(), why));
        out.flush();
    }
}
