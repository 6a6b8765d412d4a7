package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.planner.functions.udf.UserAggregateFunction;
import dev.rsql.planner.functions.udf.UserAggregateOperator;
import dev.rsql.runtime.aggregate.AggregateFunction;
import dev.rsql.runtime.aggregate.ApproxCountDistinctFunction;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.DistinctArguments;
import dev.rsql.runtime.aggregate.MinMaxFunction;
import dev.rsql.runtime.aggregate.SumFunction;
import dev.rsql.runtime.aggregate.ValueListFunction;
import dev.rsql.runtime.aggregate.VarianceFunction;
import dev.rsql.runtime.types.DataType;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/** Maps the aggregate calls of a plan to the runtime's aggregate functions. */
final class AggregateFunctions {

    private AggregateFunctions() {
    }

    /**
     * @param constant the constant value of an input field (for CONCAT_AGG's delimiter and LISTAGG's separator), or
     *     null when not constant
     * @param retracting the input is a changelog: pick variants that can take rows back
     */
    static dev.rsql.runtime.aggregate.AggregateCall map(AggregateCall call, RelDataType inputType,
                                                        Function<Integer, Object> constant, boolean retracting,
                                                        SqlParserPos position) {
        List<Integer> args = call.getArgList();
        List<DataType> argTypes = new ArrayList<>();
        for (int a : args) {
            argTypes.add(TypeConverter.toDataType(inputType.getFieldList().get(a).getType()));
        }
        String name;
        Supplier<? extends AggregateFunction> base;
        if (call.getAggregation() instanceof UserAggregateOperator) {
            UserAggregateFunction udaf = ((UserAggregateOperator) call.getAggregation()).function();
            name = udaf.name();
            base = userFunction(udaf, args, inputType, retracting, position);
        } else {
            name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
            base = builtin(name, args, argTypes, TypeConverter.toDataType(call.getType()), constant, retracting,
                    position);
        }
        String label = name + (call.isDistinct() ? "(DISTINCT " : "(") + argNames(args, inputType) + ")";
        // The runtime lets the aggregate see each distinct value once (APPROX_COUNT_DISTINCT sees every row).
        DistinctArguments distinct = call.isDistinct() && !name.equals("APPROX_COUNT_DISTINCT")
                ? new DistinctArguments(args, argTypes) : null;
        return new dev.rsql.runtime.aggregate.AggregateCall(label, base, call.filterArg, distinct);
    }

    /** A user's aggregate function (CREATE FUNCTION of an AggregateFunction class). */
    private static Supplier<? extends AggregateFunction> userFunction(UserAggregateFunction udaf, List<Integer> args,
                                                                      RelDataType inputType, boolean retracting,
                                                                      SqlParserPos position) {
        if (retracting && !udaf.canRetract()) {
            throw new PlanningException(position, "aggregate function " + udaf.name() + " reads updates, so it "
                    + "needs a retract method");
        }
        List<RelDataType> types = new ArrayList<>();
        for (int a : args) {
            types.add(inputType.getFieldList().get(a).getType());
        }
        return udaf.adapterFactory(args.stream().mapToInt(Integer::intValue).toArray(), types);
    }

    private static Supplier<? extends AggregateFunction> builtin(String name, List<Integer> args,
                                                                 List<DataType> argTypes, DataType result,
                                                                 Function<Integer, Object> constant,
                                                                 boolean retracting, SqlParserPos position) {
        int arg = args.isEmpty() ? -1 : args.get(0);
        DataType argType = argTypes.isEmpty() ? null : argTypes.get(0);
        switch (name) {
            case "COUNT":
                return () -> new CountFunction(arg);
            case "SUM":
            case "$SUM0":
                return () -> SumFunction.sum(arg, argType, result);
            case "AVG":
                return () -> SumFunction.avg(arg, argType, result);
            case "MIN":
            case "MAX":
                return () -> new MinMaxFunction(arg, argType, name.equals("MAX"), retracting);
            case "FIRST_VALUE":
                return () -> ValueListFunction.first(arg, argType, retracting);
            case "LAST_VALUE":
                return () -> ValueListFunction.last(arg, argType, retracting);
            case "CONCAT_AGG": {
                if (args.size() == 2) {
                    Object delimiter = constant.apply(args.get(0));
                    if (!(delimiter instanceof String)) {
                        throw new PlanningException(position, "the delimiter of CONCAT_AGG must be a constant string");
                    }
                    int value = args.get(1);
                    return () -> ValueListFunction.concat(value, (String) delimiter);
                }
                return () -> ValueListFunction.concat(arg, null);
            }
            case "LISTAGG": {
                // Flink's LISTAGG(value [, separator]): the separator comes second and defaults to a comma
                Object separator = args.size() == 2 ? constant.apply(args.get(1)) : ",";
                if (!(separator instanceof String)) {
                    throw new PlanningException(position, "the separator of LISTAGG must be a constant string");
                }
                return () -> ValueListFunction.concat(arg, (String) separator);
            }
            case "VAR_POP":
            case "VAR_SAMP":
            case "VARIANCE":
            case "STDDEV_POP":
            case "STDDEV_SAMP":
            case "STDDEV":
                VarianceFunction.Kind kind = VarianceFunction.Kind.valueOf(
                        name.equals("VARIANCE") ? "VAR_SAMP" : name.equals("STDDEV") ? "STDDEV_SAMP" : name);
                return () -> new VarianceFunction(kind, arg, result);
            case "APPROX_COUNT_DISTINCT":
                if (retracting) {
                    throw new PlanningException(position, "APPROX_COUNT_DISTINCT cannot read updates; use "
                            + "COUNT(DISTINCT ...)");
                }
                return () -> new ApproxCountDistinctFunction(arg);
            default:
                throw new PlanningException(position, "aggregate function " + name + " is not supported yet");
        }
    }

    private static String argNames(List<Integer> args, RelDataType inputType) {
        if (args.isEmpty()) {
            return "*";
        }
        List<String> names = new ArrayList<>();
        for (int a : args) {
            names.add(inputType.getFieldNames().get(a));
        }
        return String.join(", ", names);
    }
}
