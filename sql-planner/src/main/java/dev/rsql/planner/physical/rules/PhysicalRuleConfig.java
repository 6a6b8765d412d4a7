package dev.rsql.planner.physical.rules;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The configuration of a rule converting one logical node class to its physical node: which nodes it matches and how
 * the rule is made. (The plans carry no convention trait, so Calcite's ConverterRule, which matches by convention,
 * does not apply; rules match the logical classes instead, which physical nodes are not.)
 */
record PhysicalRuleConfig(String description, RelRule.OperandTransform operandSupplier,
                          RelBuilderFactory relBuilderFactory, Function<PhysicalRuleConfig, RelOptRule> factory)
        implements RelRule.Config {

    /** Matches nodes of {@code logicalClass} that satisfy {@code predicate}, whatever their inputs. */
    static <R extends RelNode> PhysicalRuleConfig of(String description, Class<R> logicalClass,
                                                     Predicate<? super R> predicate,
                                                     Function<PhysicalRuleConfig, RelOptRule> factory) {
        return new PhysicalRuleConfig(description, b -> b.operand(logicalClass).predicate(predicate).anyInputs(),
                RelFactories.LOGICAL_BUILDER, factory);
    }

    @Override
    public RelOptRule toRule() {
        return factory.apply(this);
    }

    @Override
    public PhysicalRuleConfig withRelBuilderFactory(RelBuilderFactory newFactory) {
        return new PhysicalRuleConfig(description, operandSupplier, newFactory, factory);
    }

    @Override
    public PhysicalRuleConfig withDescription(String newDescription) {
        return new PhysicalRuleConfig(newDescription, operandSupplier, relBuilderFactory, factory);
    }

    @Override
    public PhysicalRuleConfig withOperandSupplier(RelRule.OperandTransform transform) {
        return new PhysicalRuleConfig(description, transform, relBuilderFactory, factory);
    }
}
