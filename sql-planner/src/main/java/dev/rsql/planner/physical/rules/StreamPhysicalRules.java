package dev.rsql.planner.physical.rules;

import org.apache.calcite.plan.RelOptRule;

import java.util.List;

/** The rules that turn an optimised logical plan into a physical streaming plan, one per physical node. */
public final class StreamPhysicalRules {

    public static final RelOptRule TABLE_SOURCE_SCAN = StreamPhysicalTableSourceScanRule.DEFAULT.toRule();
    public static final RelOptRule WATERMARK_ASSIGNER = StreamPhysicalWatermarkAssignerRule.DEFAULT.toRule();
    public static final RelOptRule WINDOW_RANK = StreamPhysicalWindowRankRule.DEFAULT.toRule();
    public static final RelOptRule DEDUPLICATE = StreamPhysicalDeduplicateRule.DEFAULT.toRule();
    public static final RelOptRule RANK = StreamPhysicalRankRule.DEFAULT.toRule();
    public static final RelOptRule CALC = StreamPhysicalCalcRule.DEFAULT.toRule();
    public static final RelOptRule UNION = StreamPhysicalUnionRule.DEFAULT.toRule();
    public static final RelOptRule WINDOW_TABLE_FUNCTION = StreamPhysicalWindowTableFunctionRule.DEFAULT.toRule();
    public static final RelOptRule GROUP_AGGREGATE = StreamPhysicalGroupAggregateRule.DEFAULT.toRule();
    public static final RelOptRule WINDOW_AGGREGATE = StreamPhysicalWindowAggregateRule.DEFAULT.toRule();
    public static final RelOptRule LOOKUP_JOIN = LookupJoinRule.DEFAULT.toRule();
    public static final RelOptRule CORRELATE = StreamPhysicalCorrelateRule.DEFAULT.toRule();
    public static final RelOptRule TABLE_FUNCTION_JOIN = StreamPhysicalTableFunctionJoinRule.DEFAULT.toRule();
    public static final RelOptRule JOIN = StreamPhysicalJoinRule.DEFAULT.toRule();
    public static final RelOptRule SINK = StreamPhysicalSinkRule.DEFAULT.toRule();
    public static final RelOptRule OVER_AGGREGATE = StreamPhysicalOverAggregateRule.DEFAULT.toRule();
    public static final RelOptRule INTERVAL_JOIN = StreamPhysicalIntervalJoinRule.DEFAULT.toRule();
    public static final RelOptRule WINDOW_JOIN = StreamPhysicalWindowJoinRule.DEFAULT.toRule();
    public static final RelOptRule TEMPORAL_JOIN = StreamPhysicalTemporalJoinRule.DEFAULT.toRule();
    public static final RelOptRule SEMI_ANTI_JOIN = StreamPhysicalSemiAntiJoinRule.DEFAULT.toRule();

    /**
     * Every rule, for the physical phase: a rule matching a calc over a window before the calc rule, the lookup and
     * temporal joins before the correlate rule, the time-bounded joins before the regular join.
     */
    public static final List<RelOptRule> ALL = List.of(TABLE_SOURCE_SCAN, WATERMARK_ASSIGNER, WINDOW_RANK, DEDUPLICATE,
            RANK, CALC, UNION, WINDOW_TABLE_FUNCTION, GROUP_AGGREGATE, WINDOW_AGGREGATE, LOOKUP_JOIN, TEMPORAL_JOIN,
            CORRELATE, TABLE_FUNCTION_JOIN, INTERVAL_JOIN, WINDOW_JOIN, JOIN, SEMI_ANTI_JOIN, SINK,
            OVER_AGGREGATE);

    private StreamPhysicalRules() {
    }
}
