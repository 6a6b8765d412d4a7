package dev.rsql.runtime.graph;

import java.util.List;

/**
 * The rows of one rule of a {@link RuleSetNode}: what its calc would have emitted. It has no operator of its own (the
 * rule set's operator sends the rule's rows to this node's consumers) and keeps the calc's id and description.
 */
public final class RuleNode extends GraphNode {

    private final int index;
    private final CalcNode calc;

    public RuleNode(RuleSetNode ruleSet, int index) {
        super(ruleSet.rules().get(index).id(), List.of(ruleSet), ruleSet.rules().get(index).outputType());
        this.index = index;
        this.calc = ruleSet.rules().get(index);
    }

    public RuleSetNode ruleSet() {
        return (RuleSetNode) inputs().get(0);
    }

    /** The rule's position in its set. */
    public int index() {
        return index;
    }

    @Override
    public String kind() {
        return "Rule";
    }

    @Override
    public String describe() {
        return calc.describe();
    }
}
