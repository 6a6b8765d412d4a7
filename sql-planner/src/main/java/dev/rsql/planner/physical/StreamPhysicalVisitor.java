package dev.rsql.planner.physical;

/** One method per physical node: what the graph translator (or any other pass) does with it. */
public interface StreamPhysicalVisitor<R> {

    R visit(StreamPhysicalTableSourceScan scan);

    R visit(StreamPhysicalWatermarkAssigner assigner);

    R visit(StreamPhysicalCalc calc);

    R visit(StreamPhysicalUnion union);

    R visit(StreamPhysicalWindowTableFunction window);

    R visit(StreamPhysicalExchange exchange);

    R visit(StreamPhysicalGroupAggregate aggregate);

    R visit(StreamPhysicalLocalGroupAggregate aggregate);

    R visit(StreamPhysicalGlobalGroupAggregate aggregate);

    R visit(StreamPhysicalWindowAggregate aggregate);

    R visit(StreamPhysicalCorrelate correlate);

    R visit(StreamPhysicalJoin join);

    R visit(StreamPhysicalUpsertMaterialize materialize);

    R visit(StreamPhysicalRank rank);

    R visit(StreamPhysicalDeduplicate deduplicate);

    R visit(StreamPhysicalWindowRank rank);

    R visit(StreamPhysicalIntervalJoin join);

    R visit(StreamPhysicalWindowJoin join);

    R visit(StreamPhysicalTemporalJoin join);

    R visit(StreamPhysicalSink sink);

    R visit(StreamPhysicalOverAggregate over);

    R visit(StreamPhysicalLookupJoin join);

    R visit(StreamPhysicalSemiAntiJoin join);
}
