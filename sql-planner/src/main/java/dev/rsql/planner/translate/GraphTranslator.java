package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.ConnectorTable;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.planner.codegen.CalcCompiler;
import dev.rsql.planner.functions.LateralTables;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.table.TableDescriptor;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Turns the optimised relational plan of one INSERT into graph nodes. Sources are shared across INSERTs by table
 * (the {@link GraphBuilder} keeps one source node per table); all INSERTs into one table feed one sink node.
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
    public void translateInsert(RelNode root, SqlParserPos position) {
        if (!(root instanceof TableModify)) {
            throw new PlanningException(position, "expected an INSERT, got " + root.getRelTypeName());
        }
        TableModify modify = (TableModify) root;
        ConnectorTable target = modify.getTable().unwrap(ConnectorTable.class);
        if (target == null) {
            throw new PlanningException(position, "cannot insert into " + modify.getTable().getQualifiedName()
                    + ": it is not a table");
        }
        translate(modify.getInput(), position).sinkTo(target.descriptor());
    }

    private GraphBuilder.Stream translate(RelNode rel, SqlParserPos position) {
        if (rel instanceof TableScan) {
            ConnectorTable table = rel.getTable().unwrap(ConnectorTable.class);
            if (table == null) {
                throw new PlanningException(position, "cannot read " + rel.getTable().getQualifiedName());
            }
            SourceSettings s = sourceSettings.apply(table);
            return builder.source(table.descriptor(), s.errorPolicy(), s.deadLetterTable());
        }
        if (rel instanceof Calc) {
            Calc calc = (Calc) rel;
            GraphBuilder.Stream input = translate(calc.getInput(), position);
            return input.calc(TypeConverter.toRowType(calc.getRowType()), compiler.add(calc.getProgram()),
                    RexFormatter.describe(calc.getProgram()));
        }
        if (rel instanceof Union) {
            Union union = (Union) rel;
            if (!union.all) {
                throw unsupported(position, "UNION without ALL (it removes duplicates, which needs state)");
            }
            List<GraphBuilder.Stream> inputs = new ArrayList<>();
            for (RelNode in : union.getInputs()) {
                inputs.add(translate(in, position));
            }
            return builder.union(inputs);
        }
        if (rel instanceof Aggregate) {
            throw unsupported(position, "GROUP BY, DISTINCT and aggregate functions");
        }
        if (rel instanceof Correlate) {
            Correlate correlate = (Correlate) rel;
            return LateralTables.translate(correlate, translate(correlate.getLeft(), position), compiler,
                    correlate.getCluster().getTypeFactory(), position);
        }
        if (rel instanceof Join && LateralTables.isTableFunctionJoin((Join) rel)) {
            Join join = (Join) rel;
            return LateralTables.translate(join, translate(join.getLeft(), position), compiler,
                    join.getCluster().getTypeFactory(), position);
        }
        if (rel instanceof Join) {
            throw unsupported(position, "joins");
        }
        if (rel instanceof Window) {
            throw unsupported(position, "OVER windows");
        }
        if (rel instanceof Sort) {
            throw unsupported(position, "ORDER BY / LIMIT on a stream");
        }
        if (rel instanceof Values) {
            throw unsupported(position, "a query without FROM (VALUES)");
        }
        throw unsupported(position, rel.getRelTypeName());
    }

    private static PlanningException unsupported(SqlParserPos position, String what) {
        return new PlanningException(position, what + " is not supported yet");
    }
}
