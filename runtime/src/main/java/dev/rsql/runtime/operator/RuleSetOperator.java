package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.CalcNode;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.graph.RuleSelector;
import dev.rsql.runtime.graph.RuleSetNode;

import java.util.List;

/**
 * Runs the rules of a {@link RuleSetNode}: per row, only the rules its selector names as candidates run their calc
 * function, in rule order, and a rule's row goes to that rule's output. The result is what one calc per rule would
 * emit (the selector leaves out only rules that reject the row), at a cost that grows with the candidates, not with
 * the rules. A rule whose function fails on a row skips or fails as a calc would.
 */
public final class RuleSetOperator implements Operator {

    private final CalcFunction[] rules;
    private final Output[] outputs;
    private final RuleSelector selector;
    private OperatorContext context;

    /** @param outputs rule {@code i}'s rows go to {@code outputs.get(i)} */
    public RuleSetOperator(RuleSetNode node, List<Output> outputs) {
        List<CalcNode> calcs = node.rules();
        if (outputs.size() != calcs.size()) {
            throw new IllegalArgumentException(calcs.size() + " rules but " + outputs.size() + " outputs");
        }
        this.rules = new CalcFunction[calcs.size()];
        for (int i = 0; i < rules.length; i++) {
            rules[i] = calcs.get(i).newFunction();
        }
        this.outputs = outputs.toArray(new Output[0]);
        this.selector = node.newSelector();
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        for (CalcFunction rule : rules) {
            rule.open(context);
        }
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] fields = row.fields();
        long[] candidates = selector.candidates(fields);
        for (int w = 0; w < candidates.length; w++) {
            long bits = candidates[w];
            while (bits != 0) {
                int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                Object[] out;
                try {
                    out = rules[i].apply(fields);
                } catch (FunctionException e) {
                    if (context.skipFailedRow(row, e)) {
                        continue;
                    }
                    throw e;
                }
                if (out != null) {
                    outputs[i].emit(row.withFields(out));
                }
            }
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        for (Output o : outputs) {
            o.emitWatermark(watermark);
        }
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        for (CalcFunction rule : rules) {
            try {
                rule.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
