package dev.rsql.runtime.operator.lookup;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.graph.LookupJoinNode;
import dev.rsql.runtime.lookup.LookupTable;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;

import java.util.List;

/**
 * Runs a {@link LookupJoinNode}: computes each row's key, looks it up in the dimension table (through the job's
 * cache), and emits the row joined with each dimension row that satisfies the residual condition, with the input
 * row's kind; a LEFT join pads a row without a match with NULLs. Stateless: no keyed state, nothing to checkpoint.
 */
public final class LookupJoinOperator implements Operator {

    private final LookupJoinNode node;
    private final Output output;
    private final CalcFunction key;
    private final CalcFunction condition;
    private final int leftArity;
    private final int dimArity;
    private OperatorContext context;
    private LookupTable table;

    public LookupJoinOperator(LookupJoinNode node, Output output) {
        this.node = node;
        this.output = output;
        this.key = node.newKeyFunction();
        this.condition = node.newCondition();
        this.leftArity = node.input().outputType().size();
        this.dimArity = node.table().schema().columns().size();
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        key.open(context);
        if (condition != null) {
            condition.open(context);
        }
        table = context.lookupTable(node);
    }

    @Override
    public void process(Row row) throws Exception {
        try {
            join(row);
        } catch (FunctionException e) {
            if (!context.skipFailedRow(row, e)) {
                throw e;
            }
        }
    }

    private void join(Row row) throws Exception {
        Object[] left = row.fields();
        Object[] k = key.apply(left);
        boolean matched = false;
        if (k != null && !hasNull(k)) {
            List<Object[]> dims = table.lookup(k);
            for (int i = 0; i < dims.size(); i++) {
                Object[] joined = concat(left, dims.get(i));
                if (condition == null || condition.apply(joined) != null) {
                    output.emit(row.withFields(joined));
                    matched = true;
                }
            }
        }
        if (!matched && node.leftOuter()) {
            output.emit(row.withFields(concat(left, null)));
        }
    }

    private static boolean hasNull(Object[] key) {
        for (Object v : key) {
            if (v == null) {
                return true;
            }
        }
        return false;
    }

    private Object[] concat(Object[] left, Object[] dim) {
        Object[] out = new Object[leftArity + dimArity];
        System.arraycopy(left, 0, out, 0, leftArity);
        if (dim != null) {
            System.arraycopy(dim, 0, out, leftArity, dimArity);
        }
        return out;
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        output.emitWatermark(watermark);
    }

    @Override
    public void close() throws Exception {
        if (table != null) {
            table.close();
        }
        key.close();
        if (condition != null) {
            condition.close();
        }
    }
}
