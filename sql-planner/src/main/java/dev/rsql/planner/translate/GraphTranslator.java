package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.ConnectorTable;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.planner.calcite.WatermarkAssigner;
import dev.rsql.planner.codegen.CalcCompiler;
import dev.rsql.planner.functions.LateralTables;
import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.WindowSpec;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Turns the optimised relational plan of one INSERT into graph nodes. Sources are shared across INSERTs by table
 * (the {@link GraphBuilder} keeps one source node per table); all INSERTs into one table feed one sink node. Every
 * aggregation gets an exchange by its group keys in front of it.
 */
public final class GraphTranslator {

    /** How a source table handles records it cannot decode. */
    public record SourceSettings(ErrorPolicy errorPolicy, TableDescriptor deadLetterTable) {
    }

    private final GraphBuilder builder;
    private final CalcCompiler compiler;
    private final Function<ConnectorTable, SourceSettings> sourceSettings;

    public GraphTranslator(GraphBuilder builder, CalcCompiler compiler,
                           Function<ConnectorTable, SourceSettings> sourceSettings) {
        this.builder = builder;
        this.compiler = compiler;
        this.sourceSettings = sourceSettings;
    }

    /** Adds the INSERT's plan ({@code TableModify} at the root) to the graph. */
    public void translateInsert(RelNode root, SqlParserPos position, StreamSettings settings) {
        if (!(root instanceof TableModify)) {
            throw new PlanningException(position, "expected an INSERT, got " + root.getRelTypeName());
        }
        TableModify modify = (TableModify) root;
        ConnectorTable target = modify.getTable().unwrap(ConnectorTable.class);
        if (target == null) {
            throw new PlanningException(position, "cannot insert into " + modify.getTable().getQualifiedName()
                    + ": it is not a table");
        }
        new Translation(position, settings).translate(modify.getInput()).sinkTo(target.descriptor());
    }

    /** The translation of one INSERT. */
    private final class Translation {
        private final SqlParserPos position;
        private final StreamSettings settings;

        Translation(SqlParserPos position, StreamSettings settings) {
            this.position = position;
            this.settings = settings;
        }

        GraphBuilder.Stream translate(RelNode rel) {
            if (rel instanceof TableScan) {
                ConnectorTable table = rel.getTable().unwrap(ConnectorTable.class);
                if (table == null) {
                    throw new PlanningException(position, "cannot read " + rel.getTable().getQualifiedName());
                }
                SourceSettings s = sourceSettings.apply(table);
                return builder.source(table.descriptor(), s.errorPolicy(), s.deadLetterTable());
            }
            if (rel instanceof WatermarkAssigner) {
                WatermarkAssigner w = (WatermarkAssigner) rel;
                return translate(w.getInput()).watermark(w.rowtimeField(), w.watermarkField());
            }
            if (rel instanceof Calc) {
                Calc calc = (Calc) rel;
                if (RexOver.containsOver(calc.getProgram())) {
                    throw unsupported("OVER windows");
                }
                GraphBuilder.Stream input = translate(calc.getInput());
                return input.calc(TypeConverter.toRowType(calc.getRowType()), compiler.add(calc.getProgram()),
                        RexFormatter.describe(calc.getProgram()));
            }
            if (rel instanceof Union) {
                Union union = (Union) rel;
                if (!union.all) {
                    throw unsupported("UNION without ALL (use UNION ALL, or SELECT DISTINCT over it)");
                }
                List<GraphBuilder.Stream> inputs = new ArrayList<>();
                for (RelNode in : union.getInputs()) {
                    inputs.add(translate(in));
                }
                return builder.union(inputs);
            }
            if (rel instanceof TableFunctionScan && Lineage.isWindow((TableFunctionScan) rel)) {
                return window((TableFunctionScan) rel);
            }
            if (rel instanceof Aggregate) {
                return aggregate((Aggregate) rel);
            }
            if (rel instanceof Correlate) {
                Correlate correlate = (Correlate) rel;
                return LateralTables.translate(correlate, translate(correlate.getLeft()), compiler,
                        correlate.getCluster().getTypeFactory(), position);
            }
            if (rel instanceof Join && LateralTables.isTableFunctionJoin((Join) rel)) {
                Join join = (Join) rel;
                return LateralTables.translate(join, translate(join.getLeft()), compiler,
                        join.getCluster().getTypeFactory(), position);
            }
            if (rel instanceof Join) {
                throw unsupported("joins");
            }
            if (rel instanceof Window) {
                throw unsupported("OVER windows");
            }
            if (rel instanceof Sort) {
                throw unsupported("ORDER BY / LIMIT on a stream");
            }
            if (rel instanceof Values) {
                throw unsupported("a query without FROM (VALUES)");
            }
            throw unsupported(rel.getRelTypeName());
        }

        /** A window table function: window columns appended to each row. */
        private GraphBuilder.Stream window(TableFunctionScan scan) {
            RexCall call = (RexCall) scan.getCall();
            String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
            RelNode input = scan.getInput(0);
            int timeField = Lineage.timeField(scan);
            Lineage.Time time = Lineage.time(input, timeField);
            if (time == Lineage.Time.NONE) {
                throw new PlanningException(position, name + " needs a time attribute: a column with a WATERMARK, "
                        + "or one computed AS PROCTIME(); " + input.getRowType().getFieldNames().get(timeField)
                        + " is neither");
            }
            boolean eventTime = time == Lineage.Time.EVENT;
            List<Long> intervals = new ArrayList<>();
            for (RexNode op : call.getOperands()) {
                if (op instanceof RexLiteral && ((RexLiteral) op).getValueAs(Long.class) != null) {
                    intervals.add(((RexLiteral) op).getValueAs(Long.class));
                }
            }
            WindowSpec spec;
            try {
                switch (name) {
                    case "TUMBLE":
                        spec = WindowSpec.tumble(timeField, eventTime, intervals.get(0));
                        break;
                    case "HOP":
                        spec = WindowSpec.hop(timeField, eventTime, intervals.get(0), intervals.get(1));
                        break;
                    case "CUMULATE":
                        spec = WindowSpec.cumulate(timeField, eventTime, intervals.get(0), intervals.get(1));
                        break;
                    case "SESSION":
                        spec = WindowSpec.session(timeField, eventTime, intervals.get(intervals.size() - 1));
                        break;
                    default:
                        throw unsupported("window function " + name);
                }
            } catch (IllegalArgumentException e) {
                throw new PlanningException(position, e.getMessage());
            }
            return translate(input).window(spec);
        }

        /** GROUP BY: a window aggregation when grouping by window_start and window_end, else a changelog one. */
        private GraphBuilder.Stream aggregate(Aggregate agg) {
            if (agg.getGroupType() != Aggregate.Group.SIMPLE) {
                throw unsupported("GROUPING SETS, CUBE and ROLLUP");
            }
            GraphBuilder.Stream input = translate(agg.getInput());
            boolean retracting = input.node().producesUpdates();
            List<Integer> groups = agg.getGroupSet().asList();
            int start = -1;
            int end = -1;
            int time = -1;
            List<Integer> keys = new ArrayList<>();
            for (int g : groups) {
                switch (Lineage.window(agg.getInput(), g)) {
                    case START:
                        start = g;
                        break;
                    case END:
                        end = g;
                        break;
                    case TIME:
                        time = g;
                        break;
                    default:
                        keys.add(g);
                }
            }
            List<AggregateCall> calls = new ArrayList<>();
            for (org.apache.calcite.rel.core.AggregateCall call : agg.getAggCallList()) {
                calls.add(AggregateFunctions.map(call, agg.getInput().getRowType(), f -> constant(agg.getInput(), f),
                        retracting, position));
            }
            RowType output = TypeConverter.toRowType(agg.getRowType());
            int[] keyFields = keys.stream().mapToInt(Integer::intValue).toArray();
            if (start < 0 && end < 0 && time < 0) {
                return input.exchange(keyFields).groupAggregate(keyFields, calls, output, settings.stateTtlMillis());
            }
            if (start < 0 || end < 0) {
                throw new PlanningException(position, "a window aggregation must GROUP BY both window_start and "
                        + "window_end");
            }
            TableFunctionScan tvf = Lineage.windowScan(agg.getInput(), start);
            boolean eventTime = Lineage.time(tvf.getInput(0), Lineage.timeField(tvf)) == Lineage.Time.EVENT;
            boolean merging = ((RexCall) tvf.getCall()).getOperator().getName().equalsIgnoreCase("SESSION");
            RowType.Builder nodeOut = RowType.builder();
            for (int k : keys) {
                nodeOut.field(agg.getInput().getRowType().getFieldNames().get(k),
                        TypeConverter.toDataType(agg.getInput().getRowType().getFieldList().get(k).getType()));
            }
            for (int i = 0; i < calls.size(); i++) {
                nodeOut.field(output.name(groups.size() + i), output.type(groups.size() + i));
            }
            for (String w : List.of("window_start", "window_end", "window_time")) {
                nodeOut.field(w, DataType.timestamp(3).notNull());
            }
            GraphBuilder.Stream windowed = input.exchange(keyFields).windowAggregate(keyFields, start, end, eventTime,
                    merging, calls, settings.emit(), nodeOut.build(), settings.lateDataTable());
            // Back to the aggregate's layout: group keys in index order (window columns in their places), then calls.
            int[] map = new int[output.size()];
            for (int i = 0; i < output.size(); i++) {
                if (i >= groups.size()) {
                    map[i] = keys.size() + (i - groups.size());
                } else {
                    int g = groups.get(i);
                    int windowBase = keys.size() + calls.size();
                    map[i] = g == start ? windowBase : g == end ? windowBase + 1 : g == time ? windowBase + 2
                            : keys.indexOf(g);
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

        private PlanningException unsupported(String what) {
            return new PlanningException(position, what + " is not supported yet");
        }
    }
}
