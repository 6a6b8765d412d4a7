package dev.rsql.runtime.graph;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The stateless calcs that read one input directly and feed sinks only (a rule set: many INSERTs filtering one
 * source), run as one operator: per row a {@link RuleSelector} picks the rules that may pass it, and only those run
 * their filter and projection. Rule {@code i}'s rows leave through the {@link RuleNode} with index {@code i}.
 */
public final class RuleSetNode extends GraphNode {

    private final List<CalcNode> rules;
    private final Supplier<? extends RuleSelector> selectors;
    private final String description;

    /** @param rules the calcs, in the order their rows are emitted for one input row; none splits updates */
    public RuleSetNode(String id, GraphNode input, List<CalcNode> rules, Supplier<? extends RuleSelector> selectors,
                       String description) {
        super(id, List.of(input), input.outputType());
        this.rules = List.copyOf(rules);
        this.selectors = Objects.requireNonNull(selectors);
        this.description = description;
        for (CalcNode rule : this.rules) {
            if (rule.splitsUpdates() || rule.input() != input) {
                throw new IllegalArgumentException("not a rule of a set over " + input + ": " + rule);
            }
        }
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public List<CalcNode> rules() {
        return rules;
    }

    /** A new selector; every task gets its own. */
    public RuleSelector newSelector() {
        return selectors.get();
    }

    /** The input fields some rule reads, or null when one of them may read any. */
    int[] fieldsRead() {
        BitSet read = new BitSet();
        for (CalcNode rule : rules) {
            int[] fields = rule.fieldsRead();
            if (fields == null) {
                return null;
            }
            for (int f : fields) {
                read.set(f);
            }
        }
        return read.stream().toArray();
    }

    @Override
    public String kind() {
        return "RuleSet";
    }

    @Override
    public String describe() {
        return rules.size() + " rules; " + description;
    }
}
