package dev.rsql.runtime.graph;

import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A processing-time lookup join ({@code JOIN dim FOR SYSTEM_TIME AS OF s.proc}): each input row looks up the rows
 * of a dimension table whose {@link #lookupColumns} equal the key computed from it, as the table is now. Output: the
 * input fields then every column of the table, with the input row's kind (a changelog passes through); with
 * {@link #leftOuter} an input row without a match is emitted padded with NULLs. The dimension table is no stream: it
 * is read through its connector's {@link dev.rsql.runtime.connector.LookupSource}, cached as its options say.
 */
public final class LookupJoinNode extends GraphNode {

    private final TableDescriptor table;
    private final int[] lookupColumns;
    private final boolean uniqueKey;
    private final boolean leftOuter;
    private final Supplier<? extends CalcFunction> key;
    private final Supplier<? extends CalcFunction> condition;
    private final String description;

    /**
     * @param lookupColumns the table's columns (indices into its row type) the key is matched against
     * @param uniqueKey     the lookup columns are the primary key or a UNIQUE INDEX: at most one row per key
     * @param key           computes the key values from an input row (typed as the lookup columns)
     * @param condition     the residual condition over a joined row (input fields then table columns): null when
     *                      the pair does not match; null when every row of the key matches
     */
    public LookupJoinNode(String id, GraphNode input, TableDescriptor table, int[] lookupColumns, boolean uniqueKey,
                          boolean leftOuter, Supplier<? extends CalcFunction> key,
                          Supplier<? extends CalcFunction> condition, RowType outputType, String description) {
        super(id, List.of(input), outputType);
        if (outputType.size() != input.outputType().size() + table.schema().columns().size()) {
            throw new IllegalArgumentException("lookup join " + id + ": output has the wrong number of fields");
        }
        this.table = Objects.requireNonNull(table);
        this.lookupColumns = lookupColumns.clone();
        this.uniqueKey = uniqueKey;
        this.leftOuter = leftOuter;
        this.key = Objects.requireNonNull(key);
        this.condition = condition;
        this.description = description;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public TableDescriptor table() {
        return table;
    }

    public int[] lookupColumns() {
        return lookupColumns.clone();
    }

    public boolean uniqueKey() {
        return uniqueKey;
    }

    public boolean leftOuter() {
        return leftOuter;
    }

    /** A new key function for a task. */
    public CalcFunction newKeyFunction() {
        return key.get();
    }

    /** A new residual condition for a task, or null when there is none. */
    public CalcFunction newCondition() {
        return condition == null ? null : condition.get();
    }

    @Override
    public String kind() {
        return "LookupJoin";
    }

    @Override
    public String describe() {
        return description;
    }
}
