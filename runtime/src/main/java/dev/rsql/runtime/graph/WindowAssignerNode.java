package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * A window table function (TUMBLE, HOP, CUMULATE, SESSION): appends {@code window_start}, {@code window_end} and
 * {@code window_time} to each row, once per window the row falls into (HOP and CUMULATE may give several). For
 * SESSION the row gets its own proto-session {@code [time, time + gap)}, which the window aggregation merges. Sliced
 * (for a sliced window aggregation), a row of a HOP or CUMULATE window gets its one slice instead.
 */
public final class WindowAssignerNode extends GraphNode {

    private final WindowSpec window;
    private final WindowSlices slices;

    public WindowAssignerNode(String id, GraphNode input, WindowSpec window) {
        this(id, input, window, false);
    }

    /** @param sliced whether each row gets its one slice of a HOP or CUMULATE window instead of its windows */
    public WindowAssignerNode(String id, GraphNode input, WindowSpec window, boolean sliced) {
        super(id, List.of(input), withWindowFields(input.outputType()));
        this.window = window;
        this.slices = sliced ? new WindowSlices(window) : null;
    }

    private static RowType withWindowFields(RowType in) {
        List<String> names = new ArrayList<>(in.names());
        List<DataType> types = new ArrayList<>(in.types());
        for (String n : List.of("window_start", "window_end", "window_time")) {
            names.add(n);
            types.add(DataType.timestamp(3).notNull());
        }
        return new RowType(names, types);
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public WindowSpec window() {
        return window;
    }

    /** The slices rows get instead of their windows, or null. */
    public WindowSlices slices() {
        return slices;
    }

    @Override
    public String kind() {
        return "Window";
    }

    @Override
    public String describe() {
        return slices == null ? window.toString() : slices.toString();
    }
}
