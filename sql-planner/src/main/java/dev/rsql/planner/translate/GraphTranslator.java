package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.ConnectorTable;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.planner.codegen.CalcCompiler;
import dev.rsql.planner.functions.LateralTables;
import dev.rsql.planner.physical.ChangelogInference;
import dev.rsql.planner.physical.IntervalBounds;
import dev.rsql.planner.physical.Lineage;
import dev.rsql.planner.physical.NodePositions;
import dev.rsql.planner.physical.PhysicalPlan;
import dev.rsql.planner.physical.PhysicalPlanner;
import dev.rsql.planner.physical.RexFormatter;
import dev.rsql.planner.physical.StreamPhysicalCalc;
import dev.rsql.planner.physical.StreamPhysicalCorrelate;
import dev.rsql.planner.physical.StreamPhysicalDeduplicate;
import dev.rsql.planner.physical.StreamPhysicalExchange;
import dev.rsql.planner.physical.StreamPhysicalGlobalGroupAggregate;
import dev.rsql.planner.physical.StreamPhysicalGroupAggregate;
import dev.rsql.planner.physical.StreamPhysicalLocalGroupAggregate;
import dev.rsql.planner.physical.StreamPhysicalIntervalJoin;
import dev.rsql.planner.physical.StreamPhysicalJoin;
import dev.rsql.planner.physical.StreamPhysicalOverAggregate;
import dev.rsql.planner.physical.StreamPhysicalRank;
import dev.rsql.planner.physical.StreamPhysicalLookupJoin;
import dev.rsql.planner.physical.StreamPhysicalRel;
import dev.rsql.planner.physical.StreamPhysicalSemiAntiJoin;
import dev.rsql.planner.physical.StreamPhysicalSink;
import dev.rsql.planner.physical.StreamPhysicalTableSourceScan;
import dev.rsql.planner.physical.StreamPhysicalTemporalJoin;
import dev.rsql.planner.physical.StreamPhysicalUnion;
import dev.rsql.planner.physical.StreamPhysicalUpsertMaterialize;
import dev.rsql.planner.physical.StreamPhysicalVisitor;
import dev.rsql.planner.physical.StreamPhysicalWatermarkAssigner;
import dev.rsql.planner.physical.StreamPhysicalWindowAggregate;
import dev.rsql.planner.physical.StreamPhysicalWindowRank;
import dev.rsql.planner.physical.StreamPhysicalWindowJoin;
import dev.rsql.planner.physical.StreamPhysicalWindowTableFunction;
import dev.rsql.planner.physical.TableChangelogs;
import dev.rsql.planner.physical.rules.TwoStageOptimizedAggregateRule;
import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JoinNode;
import dev.rsql.runtime.graph.OverAggregateNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.graph.WindowSpec;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns the optimised relational plan of one INSERT into graph nodes: first into a physical plan
 * ({@link PhysicalPlanner}) whose changelog is inferred ({@link ChangelogInference}), then each physical node into
 * its operator. Sources are shared across INSERTs by table (the {@link GraphBuilder} keeps one source node per
 * table); all INSERTs into one table feed one sink node.
 */
public final class GraphTranslator {

    /** How a source table handles records it cannot decode. */
    public record SourceSettings(ErrorPolicy errorPolicy, TableDescriptor deadLetterTable) {
    }

    private final GraphBuilder builder;
    private final CalcCompiler compiler;
    private final Function<ConnectorTable, SourceSettings> sourceSettings;
    private final TableChangelogs changelogs;
    /** Tables whose rows are an existing graph node's (a Java DSL stream): the node, or null for a connector table. */
    private Function<TableDescriptor, GraphBuilder.Stream> boundTables = t -> null;
    private boolean projectionPushdown = true;

    /** @param changelogs which tables are read as changelogs, and which can be written one without a key */
    public GraphTranslator(GraphBuilder builder, CalcCompiler compiler,
                           Function<ConnectorTable, SourceSettings> sourceSettings, TableChangelogs changelogs) {
        this.builder = builder;
        this.compiler = compiler;
        this.sourceSettings = sourceSettings;
        this.changelogs = changelogs;
    }

    /** Scans of the tables {@code bound} knows read that graph node instead of a source (embedded planning). */
    public GraphTranslator bindTables(Function<TableDescriptor, GraphBuilder.Stream> bound) {
        this.boundTables = bound;
        return this;
    }

    /**
     * Whether calcs name the input fields they read (default true), so that a source all of whose consumers are
     * such calcs decodes only those fields ({@link dev.rsql.runtime.graph.SourceFields}).
     */
    public GraphTranslator projectionPushdown(boolean enabled) {
        this.projectionPushdown = enabled;
        return this;
    }

    /**
     * Adds the plan of a query written into a placeholder table ({@code TableModify} at the root) to the graph, but
     * no sink: returns the query's stream (a changelog when it updates), for the caller to go on with.
     */
    public GraphBuilder.Stream translateQuery(RelNode root, SqlParserPos position, NodePositions nodes,
                                             StreamSettings settings) {
        StreamPhysicalSink sink = PhysicalPlanner.toPhysical(root, position, nodes);
        PhysicalPlan plan = ChangelogInference.infer(sink, settings.emit(), changelogs, position, nodes);
        return new Translation(plan, position, settings).translate(plan.root().getInput());
    }

    /** Adds the INSERT's plan ({@code TableModify} at the root) to the graph; returns its physical plan. */
    public PhysicalPlan translateInsert(RelNode root, SqlParserPos position, StreamSettings settings) {
        return translateInsert(root, position, NodePositions.NONE, settings);
    }

    /** As above; an error about a node is reported at the position {@code nodes} gives it (inside a view). */
    public PhysicalPlan translateInsert(RelNode root, SqlParserPos position, NodePositions nodes,
                                       StreamSettings settings) {
        StreamPhysicalSink sink = PhysicalPlanner.toPhysical(root, position, nodes);
        PhysicalPlan plan = ChangelogInference.infer(sink, settings.emit(), changelogs, position, nodes);
        if (settings.aggregation().twoPhase()) {
            StreamPhysicalSink split = TwoStageOptimizedAggregateRule.apply(sink, plan);
            if (split != sink) {
                plan = ChangelogInference.infer(split, settings.emit(), changelogs, position, nodes);
            }
        }
        plan.root().accept(new Translation(plan, position, settings));
        return plan;
    }

    /** The translation of one INSERT: one graph node (or a few) per physical node. */
    private final class Translation implements StreamPhysicalVisitor<GraphBuilder.Stream> {
        private final PhysicalPlan plan;
        private final SqlParserPos position;
        private final StreamSettings settings;
        /** The window table function below the sliced window aggregation being translated, or null. */
        private StreamPhysicalWindowTableFunction slicedWindow;

        Translation(PhysicalPlan plan, SqlParserPos position, StreamSettings settings) {
            this.plan = plan;
            this.position = position;
            this.settings = settings;
        }

        private GraphBuilder.Stream translate(RelNode rel) {
            return ((StreamPhysicalRel) rel).accept(this);
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalSink sink) {
            ConnectorTable target = sink.connectorTable();
            if (target == null) {
                throw new PlanningException(position, "cannot insert into "
                        + String.join(".", sink.target().getQualifiedName()) + ": it is not a table");
            }
            GraphBuilder.Stream input = translate(sink.getInput());
            input.sinkTo(target.descriptor());
            return input;
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalTableSourceScan scan) {
            ConnectorTable table = scan.getTable().unwrap(ConnectorTable.class);
            if (table == null) {
                throw new PlanningException(position, "cannot read " + scan.getTable().getQualifiedName());
            }
            GraphBuilder.Stream bound = boundTables.apply(table.descriptor());
            if (bound != null) {
                return bound;
            }
            SourceSettings s = sourceSettings.apply(table);
            return builder.source(table.descriptor(), s.errorPolicy(), s.deadLetterTable());
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalLookupJoin join) {
            return LookupJoins.translate(join, translate(join.getInput()), compiler, position);
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalWatermarkAssigner w) {
            return translate(w.getInput()).watermark(w.rowtimeField(), w.watermarkField());
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalCalc calc) {
            GraphBuilder.Stream input = translate(calc.getInput());
            boolean splitsUpdates = calc.hasCondition() && plan.mode(calc.getInput()).hasUpdateBefore();
            List<ImmutableBitSet> keys = plan.changelog(calc.getInput()).upsertKeys();
            return input.calc(TypeConverter.toRowType(calc.getRowType()),
                    compiler.add(calc.getProgram(), sourceRows(calc.getInput(), input)),
                    RexFormatter.describe(calc.getProgram()), splitsUpdates,
                    keys.isEmpty() ? new int[0] : keys.get(0).toArray(), fieldsRead(calc.getProgram()));
        }

        /** The name of the source table whose rows as read {@code input} is, else null (for shared conjuncts). */
        private String sourceRows(RelNode input, GraphBuilder.Stream stream) {
            return input instanceof StreamPhysicalTableSourceScan && stream.node() instanceof SourceNode
                    ? ((SourceNode) stream.node()).table().name() : null;
        }

        /** The input fields the program's condition and projections use, or null when not told to sources. */
        private int[] fieldsRead(RexProgram program) {
            if (!projectionPushdown) {
                return null;
            }
            List<RexNode> used = new ArrayList<>();
            for (RexLocalRef ref : program.getProjectList()) {
                used.add(program.expandLocalRef(ref));
            }
            if (program.getCondition() != null) {
                used.add(program.expandLocalRef(program.getCondition()));
            }
            return RelOptUtil.InputFinder.bits(used, null).toArray();
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalUnion union) {
            List<GraphBuilder.Stream> inputs = new ArrayList<>();
            for (RelNode in : union.getInputs()) {
                inputs.add(translate(in));
            }
            return builder.union(inputs);
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalExchange exchange) {
            return translate(exchange.getInput()).exchange(exchange.keys());
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalCorrelate c) {
            return LateralTables.translate(c.getInput(), c.function(), c.joinType(), c.correlationId(),
                    c.getRowType(), translate(c.getInput()), compiler, c.getCluster().getTypeFactory(), position);
        }

        /** A regular join, over both sides tagged and partitioned by the join key ({@link #keyedSides}). */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalJoin join) {
            JoinInfo info = join.joinInfo();
            KeyedSides sides = keyedSides(join, info.getRemaining(join.getCluster().getRexBuilder()));
            JoinNode.Type type = JoinNode.Type.valueOf(join.getJoinType().name());
            return sides.stream().join(type, sides.keyCount(), TypeConverter.toRowType(join.getLeft().getRowType()),
                    TypeConverter.toRowType(join.getRight().getRowType()), TypeConverter.toRowType(join.getRowType()),
                    sides.condition(), join.describe(), settings.stateTtlMillis());
        }

        /** A semi or anti join: its sides tagged and exchanged as for a regular join. */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalSemiAntiJoin join) {
            KeyedSides sides = keyedSides(join, join.analyzeCondition().getRemaining(join.getCluster().getRexBuilder()));
            return sides.stream().semiAntiJoin(join.isAnti(), sides.keyCount(),
                    TypeConverter.toRowType(join.getLeft().getRowType()),
                    TypeConverter.toRowType(join.getRight().getRowType()), sides.condition(), join.describe(),
                    settings.stateTtlMillis());
        }

        /** An interval join: its bounds' time fields, and both sides through one exchange by the join key. */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalIntervalJoin join) {
            IntervalBounds b = join.bounds();
            if (b.lower() > b.upper()) {
                throw new PlanningException(position, "the time bounds of an interval join leave no interval: "
                        + join.describe());
            }
            KeyedSides sides = keyedSides(join, b.residual());
            return sides.stream().intervalJoin(JoinNode.Type.valueOf(join.getJoinType().name()), sides.keyCount(),
                    TypeConverter.toRowType(join.getLeft().getRowType()),
                    TypeConverter.toRowType(join.getRight().getRowType()), TypeConverter.toRowType(join.getRowType()),
                    sides.condition(), join.describe(), b.eventTime(), b.leftTime(), b.rightTime(), b.lower(),
                    b.upper());
        }

        /** A window join: both sides' windows must be the same event-time windows (not sessions). */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalWindowJoin join) {
            int[] ends = join.windowEnds();
            TableFunctionScan l = Lineage.windowOrigin(join.getLeft(), ends[0]).scan();
            TableFunctionScan r = Lineage.windowOrigin(join.getRight(), ends[1]).scan();
            if (!windowOf(l).equals(windowOf(r))) {
                throw new PlanningException(position, "a window join needs the same windows on both sides: "
                        + windowOf(l) + " and " + windowOf(r) + " differ");
            }
            if (windowOf(l).startsWith("SESSION")) {
                throw new PlanningException(position, "a window join on SESSION windows is not supported yet");
            }
            int lt = Lineage.timeField(l);
            if (Lineage.time(l.getInput(0), lt) != Lineage.Time.EVENT
                    || Lineage.time(r.getInput(0), Lineage.timeField(r)) != Lineage.Time.EVENT) {
                throw new PlanningException(position, "a window join needs event-time windows (on a column with a "
                        + "WATERMARK); processing-time window joins are not supported, as in Flink");
            }
            KeyedSides sides = keyedSides(join, join.residual());
            return sides.stream().windowJoin(JoinNode.Type.valueOf(join.getJoinType().name()), sides.keyCount(),
                    TypeConverter.toRowType(join.getLeft().getRowType()),
                    TypeConverter.toRowType(join.getRight().getRowType()), TypeConverter.toRowType(join.getRowType()),
                    sides.condition(), join.describe(), ends[0], ends[1]);
        }

        /** A window function and its intervals, e.g. {@code TUMBLE(10000)}. */
        private String windowOf(TableFunctionScan scan) {
            StringBuilder sb = new StringBuilder(((RexCall) scan.getCall()).getOperator().getName());
            List<String> intervals = new ArrayList<>();
            for (RexNode op : ((RexCall) scan.getCall()).getOperands()) {
                if (op instanceof RexLiteral) {
                    intervals.add(String.valueOf(((RexLiteral) op).getValueAs(Long.class)));
                }
            }
            return sb.append('(').append(String.join(", ", intervals)).append(" ms)").toString();
        }

        /**
         * FOR SYSTEM_TIME AS OF an event-time attribute, with a versioned table: one with a primary key, covered by the
         * join's equal keys, and a watermark.
         */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalTemporalJoin join) {
            String table = tableName(join.getRight());
            if (join.periodTime() != Lineage.Time.EVENT) {
                throw new PlanningException(position, "FOR SYSTEM_TIME AS OF " + (join.periodTime() == Lineage.Time.PROC
                        ? "a processing-time attribute needs a dimension table (a connector with lookups); " + table
                        + " is not one" : "needs a time attribute of the left side (a column with a WATERMARK, for an "
                        + "event-time temporal join, or AS PROCTIME(), for a lookup join)"));
            }
            JoinInfo info = join.joinInfo();
            int[] primaryKey = primaryKey(join.getRight());
            if (primaryKey.length == 0) {
                throw new PlanningException(position, "an event-time temporal join needs a versioned table: " + table
                        + " has no PRIMARY KEY");
            }
            for (int k : primaryKey) {
                if (!info.rightKeys.contains(k)) {
                    throw new PlanningException(position, "an event-time temporal join must join on the primary key of "
                            + "the versioned table " + table + ": ON has no equality on "
                            + join.getRight().getRowType().getFieldNames().get(k));
                }
            }
            int versionTime = join.versionTimeField();
            if (versionTime < 0) {
                throw new PlanningException(position, "an event-time temporal join needs a versioned table: " + table
                        + " has no WATERMARK (its rowtime is the time each version is valid from)");
            }
            KeyedSides sides = keyedSides(join, join.residual());
            return sides.stream().temporalJoin(JoinNode.Type.valueOf(join.getJoinType().name()), sides.keyCount(),
                    TypeConverter.toRowType(join.getLeft().getRowType()),
                    TypeConverter.toRowType(join.getRight().getRowType()), TypeConverter.toRowType(join.getRowType()),
                    sides.condition(), join.describe(), join.periodField(), versionTime);
        }

        /** The primary key of the table a plan reads, as its fields, or none when it is not a table's columns. */
        private int[] primaryKey(RelNode rel) {
            ConnectorTable table = null;
            int[] fields = new int[0];
            List<Integer> found = new ArrayList<>();
            for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
                Lineage.Column c = Lineage.column(rel, i);
                if (c != null && c.table().unwrap(ConnectorTable.class) != null) {
                    table = c.table().unwrap(ConnectorTable.class);
                    for (int k : table.descriptor().schema().primaryKeyIndices()) {
                        if (k == c.index()) {
                            found.add(i);
                        }
                    }
                }
            }
            if (table != null && found.size() == table.descriptor().schema().primaryKeyIndices().length) {
                fields = found.stream().mapToInt(Integer::intValue).toArray();
            }
            return fields;
        }

        private String tableName(RelNode rel) {
            for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
                Lineage.Column c = Lineage.column(rel, i);
                if (c != null) {
                    List<String> name = c.table().getQualifiedName();
                    return name.get(name.size() - 1).replace("$stored$", "");
                }
            }
            return "the table";
        }

        /** Both sides of a join, tagged, through one exchange by the join key; the residual condition compiled. */
        private record KeyedSides(GraphBuilder.Stream stream, int keyCount, Supplier<CalcFunction> condition) {
        }

        /**
         * Each side of a join tagged and padded to one row layout ({@link JoinNode}), both through one exchange by the
         * join key, so that a task sees both sides of its keys; {@code residual} is compiled over the joined row.
         */
        private KeyedSides keyedSides(Join join, RexNode residual) {
            JoinInfo info = join.analyzeCondition();
            RelDataTypeFactory types = join.getCluster().getTypeFactory();
            RexBuilder rex = join.getCluster().getRexBuilder();
            RelDataType left = join.getLeft().getRowType();
            RelDataType right = join.getRight().getRowType();
            RelDataTypeFactory.Builder tagged = types.builder().add("$side", SqlTypeName.INTEGER);
            for (int i = 0; i < info.leftKeys.size(); i++) {
                tagged.add("$key" + i, nullable(types, left.getFieldList().get(info.leftKeys.get(i)).getType()));
            }
            left.getFieldList().forEach(f -> tagged.add("$left$" + f.getName(), nullable(types, f.getType())));
            right.getFieldList().forEach(f -> tagged.add("$right$" + f.getName(), nullable(types, f.getType())));
            RelDataType taggedType = tagged.build();
            GraphBuilder.Stream l = tag(translate(join.getLeft()), 0, left, info.leftKeys, taggedType, rex, types);
            GraphBuilder.Stream r = tag(translate(join.getRight()), 1, right, info.rightKeys, taggedType, rex, types);
            int[] keys = new int[info.leftKeys.size()];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = 1 + i;
            }
            Supplier<CalcFunction> condition = null;
            if (!residual.isAlwaysTrue()) {
                RelDataTypeFactory.Builder both = types.builder();
                left.getFieldList().forEach(f -> both.add("$left$" + f.getName(), f.getType()));
                right.getFieldList().forEach(f -> both.add("$right$" + f.getName(), f.getType()));
                RexProgramBuilder program = new RexProgramBuilder(both.build(), rex);
                program.addCondition(residual);
                program.addProject(rex.makeLiteral(true), "matches");
                condition = compiler.add(program.getProgram());
            }
            return new KeyedSides(builder.union(List.of(l, r)).exchange(keys), keys.length, condition);
        }

        /** One side of a join as tagged rows: its side, its key fields, then its fields in its place. */
        private GraphBuilder.Stream tag(GraphBuilder.Stream side, int sideTag, RelDataType sideType,
                                        List<Integer> keys, RelDataType taggedType, RexBuilder rex,
                                        RelDataTypeFactory types) {
            List<RexNode> exprs = new ArrayList<>();
            exprs.add(rex.makeLiteral(sideTag, types.createSqlType(SqlTypeName.INTEGER)));
            for (int k : keys) {
                exprs.add(rex.makeCast(taggedType.getFieldList().get(exprs.size()).getType(),
                        rex.makeInputRef(sideType, k)));
            }
            int first = exprs.size();
            for (int i = first; i < taggedType.getFieldCount(); i++) {
                RelDataType t = taggedType.getFieldList().get(i).getType();
                int otherFields = taggedType.getFieldCount() - first - sideType.getFieldCount();
                int own = i - first - (sideTag == 0 ? 0 : otherFields);
                exprs.add(own >= 0 && own < sideType.getFieldCount()
                        ? rex.makeCast(t, rex.makeInputRef(sideType, own)) : rex.makeNullLiteral(t));
            }
            RexProgram program = RexProgram.create(sideType, exprs, null, taggedType, rex);
            return side.calc(TypeConverter.toRowType(taggedType), compiler.add(program),
                    (sideTag == 0 ? "left" : "right") + " side of a join, tagged");
        }

        private RelDataType nullable(RelDataTypeFactory types, RelDataType t) {
            return types.createTypeWithNullability(t, true);
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalUpsertMaterialize materialize) {
            return translate(materialize.getInput()).upsertMaterialize(materialize.keys());
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalRank rank) {
            return RankTranslation.rank(rank, translate(rank.getInput()), plan, settings);
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalDeduplicate deduplicate) {
            return RankTranslation.deduplicate(deduplicate, translate(deduplicate.getInput()), plan, settings);
        }

        @Override
        public GraphBuilder.Stream visit(StreamPhysicalWindowRank rank) {
            return RankTranslation.windowRank(rank, translate(rank.getInput()));
        }

        /**
         * A window table function: window columns appended to each row; or, below the sliced window aggregation being
         * translated, each row's slice.
         */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalWindowTableFunction window) {
            WindowSpec spec = windowSpec(window);
            GraphBuilder.Stream input = translate(window.getInput());
            return window == slicedWindow ? input.windowSlices(spec) : input.window(spec);
        }

        private WindowSpec windowSpec(StreamPhysicalWindowTableFunction window) {
            String name = window.functionName();
            RelNode input = window.getInput();
            int timeField = window.timeField();
            Lineage.Time time = window.time();
            if (time == Lineage.Time.NONE) {
                throw new PlanningException(position, name + " needs a time attribute: a column with a WATERMARK, "
                        + "or one computed AS PROCTIME(); " + input.getRowType().getFieldNames().get(timeField)
                        + " is neither");
            }
            boolean eventTime = time == Lineage.Time.EVENT;
            List<Long> intervals = new ArrayList<>();
            for (RexNode op : ((RexCall) window.getCall()).getOperands()) {
                if (op instanceof RexLiteral && ((RexLiteral) op).getValueAs(Long.class) != null) {
                    intervals.add(((RexLiteral) op).getValueAs(Long.class));
                }
            }
            try {
                switch (name) {
                    case "TUMBLE":
                        return WindowSpec.tumble(timeField, eventTime, intervals.get(0));
                    case "HOP":
                        return WindowSpec.hop(timeField, eventTime, intervals.get(0), intervals.get(1));
                    case "CUMULATE":
                        return WindowSpec.cumulate(timeField, eventTime, intervals.get(0), intervals.get(1));
                    case "SESSION":
                        return WindowSpec.session(timeField, eventTime, intervals.get(intervals.size() - 1));
                    default:
                        throw new PlanningException(position, "window function " + name + " is not supported yet");
                }
            } catch (IllegalArgumentException e) {
                throw new PlanningException(position, e.getMessage());
            }
        }

        /** GROUP BY without a window: a changelog, behind its exchange by the group fields. */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalGroupAggregate agg) {
            GraphBuilder.Stream input = translate(agg.getInput());
            List<AggregateCall> calls = calls(agg);
            int[] keyFields = agg.getGroupSet().toArray();
            return input.groupAggregate(keyFields, calls, TypeConverter.toRowType(agg.getRowType()),
                    settings.stateTtlMillis(), plan.mode(agg).hasUpdateBefore(), settings.aggregation().miniBatch());
        }

        /** The local phase of a two-phase GROUP BY: partial accumulators per mini-batch, before the exchange. */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalLocalGroupAggregate agg) {
            return translate(agg.getInput()).localGroupAggregate(agg.getGroupSet().toArray(),
                    calls(agg.getAggCallList(), agg.getInput(), false), settings.aggregation().miniBatch());
        }

        /** The global phase of a two-phase GROUP BY: merges the local phase's accumulators into state. */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalGlobalGroupAggregate agg) {
            RelNode local = agg.getInput().getInput(0);
            return translate(agg.getInput()).globalGroupAggregate(agg.groupCount(),
                    calls(agg.aggCalls(), local.getInput(0), false), TypeConverter.toRowType(agg.getRowType()),
                    settings.stateTtlMillis(), plan.mode(agg).hasUpdateBefore(), settings.aggregation().miniBatch());
        }

        /** GROUP BY window_start, window_end: a window aggregation, its output back in the aggregate's layout. */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalWindowAggregate agg) {
            StreamPhysicalWindowAggregate.Window w = agg.window();
            if (w.start() < 0 || w.end() < 0) {
                throw new PlanningException(position, "a window aggregation must GROUP BY both window_start and "
                        + "window_end");
            }
            List<AggregateCall> calls = calls(agg);
            // Slices when the plan allows them (see the rule), each window's result is emitted once and every
            // aggregate can merge; otherwise each row goes to each of its windows.
            StreamPhysicalWindowTableFunction tvf = w.sliced() && !settings.emit().producesUpdates()
                    && new Accumulators(calls).canMerge()
                    ? (StreamPhysicalWindowTableFunction) Lineage.windowScan(agg.getInput(), w.end()) : null;
            GraphBuilder.Stream input;
            slicedWindow = tvf;
            try {
                input = translate(agg.getInput());
            } finally {
                slicedWindow = null;
            }
            List<Integer> groups = agg.getGroupSet().asList();
            List<Integer> keys = agg.keys();
            RowType output = TypeConverter.toRowType(agg.getRowType());
            int[] keyFields = keys.stream().mapToInt(Integer::intValue).toArray();
            RowType.Builder nodeOut = RowType.builder();
            for (int k : keys) {
                nodeOut.field(agg.getInput().getRowType().getFieldNames().get(k),
                        TypeConverter.toDataType(agg.getInput().getRowType().getFieldList().get(k).getType()));
            }
            for (int i = 0; i < calls.size(); i++) {
                nodeOut.field(output.name(groups.size() + i), output.type(groups.size() + i));
            }
            for (String c : List.of("window_start", "window_end", "window_time")) {
                nodeOut.field(c, DataType.timestamp(3).notNull());
            }
            GraphBuilder.Stream windowed = tvf != null
                    ? input.slicedWindowAggregate(keyFields, w.start(), w.end(), windowSpec(tvf), calls,
                            nodeOut.build(), settings.lateDataTable())
                    : input.windowAggregate(keyFields, w.start(), w.end(), w.eventTime(), w.merging(), calls,
                            settings.emit(), nodeOut.build(), settings.lateDataTable());
            // Back to the aggregate's layout: group keys in index order (window columns in their places), then calls.
            int[] map = new int[output.size()];
            for (int i = 0; i < output.size(); i++) {
                if (i >= groups.size()) {
                    map[i] = keys.size() + (i - groups.size());
                } else {
                    int g = groups.get(i);
                    int windowBase = keys.size() + calls.size();
                    map[i] = g == w.start() ? windowBase : g == w.end() ? windowBase + 1
                            : g == w.time() ? windowBase + 2 : keys.indexOf(g);
                }
            }
            return windowed.calc(output, () -> in -> {
                Object[] out = new Object[map.length];
                for (int i = 0; i < map.length; i++) {
                    out[i] = in[map[i]];
                }
                return out;
            }, "select " + String.join(", ", output.names()));
        }

        /**
         * Aggregates over an OVER window, behind its exchange by the partition fields. The input is insert-only, so
         * the plain variants of the aggregates serve; the operator takes rows leaving a bounded window back out of
         * those that can retract, and computes the others afresh.
         */
        @Override
        public GraphBuilder.Stream visit(StreamPhysicalOverAggregate over) {
            RelNode exchange = over.getInput();
            RelNode input = ((StreamPhysicalExchange) exchange).getInput();
            List<AggregateCall> calls = new ArrayList<>();
            for (org.apache.calcite.rel.core.AggregateCall call : over.aggCalls()) {
                calls.add(AggregateFunctions.map(call, exchange.getRowType(), f -> constant(input, f), false,
                        position));
            }
            long preceding = over.preceding() == StreamPhysicalOverAggregate.UNBOUNDED ? OverAggregateNode.UNBOUNDED
                    : over.preceding();
            return translate(exchange).overAggregate(over.partitionKeys(), over.orderField(), over.eventTime(),
                    over.rows(), preceding, calls, TypeConverter.toRowType(over.getRowType()),
                    settings.stateTtlMillis(), settings.lateDataTable());
        }

        /** The aggregate's calls as runtime aggregates; over a changelog, variants that can take rows back. */
        private List<AggregateCall> calls(Aggregate agg) {
            RelNode exchange = agg.getInput();
            return calls(agg.getAggCallList(), exchange, plan.mode(exchange).kinds().isChangelog());
        }

        /** The runtime aggregates of calls reading {@code rows} (an exchange, or the input of a local phase). */
        private List<AggregateCall> calls(List<org.apache.calcite.rel.core.AggregateCall> aggCalls, RelNode rows,
                                          boolean retracting) {
            RelNode input = rows instanceof StreamPhysicalExchange ? ((StreamPhysicalExchange) rows).getInput() : rows;
            List<AggregateCall> calls = new ArrayList<>();
            for (org.apache.calcite.rel.core.AggregateCall call : aggCalls) {
                calls.add(AggregateFunctions.map(call, rows.getRowType(), f -> constant(input, f), retracting,
                        position));
            }
            return calls;
        }

        /** The constant an aggregate input field holds (for a CONCAT_AGG delimiter), or null. */
        private Object constant(RelNode input, int field) {
            if (input instanceof Calc) {
                Calc c = (Calc) input;
                RexNode e = c.getProgram().expandLocalRef(c.getProgram().getProjectList().get(field));
                if (e instanceof RexLiteral) {
                    return ((RexLiteral) e).getValueAs(String.class);
                }
            }
            return null;
        }
    }
}
