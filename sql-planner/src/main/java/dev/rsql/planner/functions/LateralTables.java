package dev.rsql.planner.functions;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.planner.codegen.CalcCompiler;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.GraphBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Translates {@code LATERAL TABLE(f(...))} — a physical correlate over a {@link TableFunctionScan} — into a
 * correlate node: the call's arguments (expressions over the left input's fields) compile into a calc function, the
 * call itself into a {@link TableInvoker}, both in the job's compilation unit. A table function whose arguments do
 * not use the left side (Calcite plans it as a join on TRUE) is translated the same way.
 */
public final class LateralTables {

    private LateralTables() {
    }

    /**
     * The correlate node of {@code input} (the left side) and {@code right} (the function call).
     *
     * @param correlationId the variable through which the call reads the left row; null when it does not
     */
    public static GraphBuilder.Stream translate(RelNode left, RelNode right, JoinRelType joinType,
                                                CorrelationId correlationId, RelDataType rowType,
                                                GraphBuilder.Stream input, CalcCompiler compiler,
                                                RelDataTypeFactory typeFactory, SqlParserPos position) {
        if (joinType != JoinRelType.INNER && joinType != JoinRelType.LEFT) {
            throw new PlanningException(position, "LATERAL TABLE supports the comma (cross) join and LEFT JOIN ... ON "
                    + "TRUE, not a " + joinType + " join");
        }
        if (!(right instanceof TableFunctionScan)) {
            throw new PlanningException(position, "a join with LATERAL TABLE must be a comma join or LEFT JOIN "
                    + "LATERAL TABLE(...) ON TRUE (conditions on the function's columns belong in WHERE)");
        }
        TableFunctionScan scan = (TableFunctionScan) right;
        if (!(scan.getCall() instanceof RexCall)
                || !(((RexCall) scan.getCall()).getOperator() instanceof RsqlTableFunction)) {
            throw new PlanningException(position, "LATERAL TABLE needs a table function (a built-in such as "
                    + "STRING_SPLIT or one created with CREATE FUNCTION), got " + scan.getCall());
        }
        RexCall call = (RexCall) scan.getCall();
        RsqlTableFunction function = (RsqlTableFunction) call.getOperator();
        RelDataType leftType = left.getRowType();
        RexBuilder rexBuilder = left.getCluster().getRexBuilder();

        // $cor0.field -> input field: the arguments become expressions over the left row.
        RexShuttle uncorrelate = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess fieldAccess) {
                if (fieldAccess.getReferenceExpr() instanceof RexCorrelVariable
                        && ((RexCorrelVariable) fieldAccess.getReferenceExpr()).id.equals(correlationId)) {
                    return new RexInputRef(fieldAccess.getField().getIndex(), fieldAccess.getType());
                }
                return super.visitFieldAccess(fieldAccess);
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                throw new PlanningException(position, "LATERAL TABLE arguments may only use columns of the "
                        + "tables before it");
            }
        };
        List<RexNode> args = new ArrayList<>();
        List<RelDataType> argTypes = new ArrayList<>();
        List<String> argNames = new ArrayList<>();
        for (RexNode op : call.getOperands()) {
            RexNode arg = op.accept(uncorrelate);
            args.add(arg);
            argTypes.add(arg.getType());
            argNames.add("arg" + argNames.size());
        }
        RelDataType argsRowType = typeFactory.createStructType(argTypes, argNames);
        RexProgram program = RexProgram.create(leftType, args, null, argsRowType, rexBuilder);
        Supplier<CalcFunction> argsFunction = compiler.add(program);
        Supplier<TableInvoker> invoker = compiler.addClass("Udtf",
                name -> TableFunctionCodegen.generate(name, function, argTypes));

        String description = function.getName() + "(" + args.stream().map(a -> describe(a, leftType))
                .collect(Collectors.joining(", ")) + ") AS (" + String.join(", ", scan.getRowType().getFieldNames())
                + ")";
        return input.correlate(TypeConverter.toRowType(rowType),
                () -> new CorrelateCall(argsFunction.get(), invoker.get()),
                function.rowConverter(scan.getRowType()), joinType == JoinRelType.LEFT, description);
    }

    private static String describe(RexNode node, RelDataType inputType) {
        if (node instanceof RexInputRef) {
            return inputType.getFieldNames().get(((RexInputRef) node).getIndex());
        }
        if (node instanceof RexLiteral) {
            RexLiteral l = (RexLiteral) node;
            return l.isNull() ? "NULL" : l.toString();
        }
        if (node instanceof RexCall) {
            RexCall c = (RexCall) node;
            return c.getOperator().getName() + "(" + c.getOperands().stream().map(o -> describe(o, inputType))
                    .collect(Collectors.joining(", ")) + ")";
        }
        return node.toString();
    }
}
