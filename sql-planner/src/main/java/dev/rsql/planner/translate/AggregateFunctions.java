package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.runtime.aggregate.AggregateFunction;
import dev.rsql.runtime.aggregate.ApproxCountDistinctFunction;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.DistinctFunction;
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
     * @param constant the constant value of an input field (for CONCAT_AGG's delimiter), or null when not constant
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
        DataType result = TypeConverter.toDataType(call.getType());
        String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
        int arg = args.isEmpty() ? -1 : args.get(0);
        DataType argType = argTypes.isEmpty() ? null : argTypes.get(0);
        Supplier<AggregateFunction> f;
        switch (name) {
            case "COUNT":
                f = () -> new CountFunction(arg);
                break;
            case "SUM":
            case "$SUM0":
                f = () -> SumFunction.sum(arg, argType, result);
                break;
            case "AVG":
                f = () -> SumFunction.avg(arg, argType, result);
                break;
            case "MIN":
            case "MAX":
                f = () -> new MinMaxFunction(arg, argType, name.equals("MAX"), retracting);
                break;
            case "FIRST_VALUE":
                f = () -> ValueListFunction.first(arg, argType, retracting);
                break;
            case "LAST_VALUE":
                f = () -> ValueListFunction.last(arg, argType, retracting);
                break;
            case "CONCAT_AGG": {
                if (args.size() == 2) {
                    Object delimiter = constant.apply(args.get(0));
                    if (!(delimiter instanceof String)) {
                        throw new PlanningException(position, "the delimiter of CONCAT_AGG must be a constant string");
                    }
                    int value = args.get(1);
                    f = () -> ValueListFunction.concat(value, (String) delimiter);
                } else {
                    f = () -> ValueListFunction.concat(arg, null);
                }
                break;
            }
            case "VAR_POP":
            case "VAR_SAMP":
            case "VARIANCE":
            case "STDDEV_POP":
            case "STDDEV_SAMP":
            case "STDDEV":
                VarianceFunction.Kind kind = VarianceFunction.Kind.valueOf(
                        name.equals("VARIANCE") ? "VAR_SAMP" : name.equals("STDDEV") ? "STDDEV_SAMP" : name);
                f = () -> new VarianceFunction(kind, arg, result);
                break;
            case "APPROX_COUNT_DISTINCT":
                if (retracting) {
                    throw new PlanningException(position, "APPROX_COUNT_DISTINCT cannot read updates; use "
                            + "COUNT(DISTINCT ...)");
                }
                f = () -> new ApproxCountDistinctFunction(arg);
                break;
            default:
                throw new PlanningException(position, "aggregate function " + name + " is not supported yet");
        }
        Supplier<AggregateFunction> base = f;
        Supplier<AggregateFunction> factory = base;
        String label = name + (call.isDistinct() ? "(DISTINCT " : "(") + argNames(args, inputType) + ")";
        if (call.isDistinct() && !name.equals("APPROX_COUNT_DISTINCT")) {
            int[] distinctArgs = args.stream().mapToInt(Integer::intValue).toArray();
            factory = () -> new DistinctFunction(base.get(), distinctArgs, argTypes);
        }
        return new dev.rsql.runtime.aggregate.AggregateCall(label, factory, call.filterArg);
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
