package dev.rsql.planner.functions.udf;

import dev.rsql.planner.functions.Invocation;
import dev.rsql.planner.functions.Overload;
import dev.rsql.planner.functions.ParamType;
import dev.rsql.planner.functions.ReturnSpec;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.functions.AggregateFunction;
import org.apache.flink.table.types.DataType;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A user-defined aggregate function class (Blink/Flink {@link AggregateFunction}) as the planner and the aggregation
 * operators see it: the {@code accumulate} overloads (their parameters after the accumulator are the SQL arguments),
 * whether it can {@code retract} and {@code merge}, its result type, and a factory of {@link UdafAdapter}s, the
 * per-task instances the aggregation calls.
 *
 * <p>Use from the aggregate translation (issue 3): the aggregate call's operator is a {@link UserAggregateOperator};
 * {@code operator.function().adapterFactory(argFields, argTypes)} gives the {@code AggregateCall} factory.
 */
public final class UserAggregateFunction {

    private final String name;
    private final Class<? extends AggregateFunction> type;
    private final List<Method> accumulates;
    private final List<Method> retracts;
    private final Method merge;
    private final Method reset;
    private final RelDataType resultType;
    private final List<Overload> overloads;
    private final boolean deterministic;
    private final boolean requiresOver;
    private final AccumulatorSerializer serializer;
    /** The registered function object's key ({@link FunctionObjects}), or null: instances from the constructor. */
    private final String objectKey;
    private final DataViewFields dataViews;

    private UserAggregateFunction(String name, Class<? extends AggregateFunction> type, String objectKey,
                                  List<Method> accumulates,
                                  List<Method> retracts, Method merge, Method reset, RelDataType resultType,
                                  List<Overload> overloads, boolean deterministic, boolean requiresOver,
                                  AccumulatorSerializer serializer, DataViewFields dataViews) {
        this.name = name;
        this.type = type;
        this.objectKey = objectKey;
        this.accumulates = accumulates;
        this.retracts = retracts;
        this.merge = merge;
        this.reset = reset;
        this.resultType = resultType;
        this.overloads = overloads;
        this.deterministic = deterministic;
        this.requiresOver = requiresOver;
        this.serializer = serializer;
        this.dataViews = dataViews;
    }

    /** Inspects a UDAF class; IllegalArgumentException with a message for the user when it is unfit. */
    public static UserAggregateFunction of(String name, Class<? extends AggregateFunction> c,
                                           RelDataTypeFactory typeFactory,
                                           Function<String, RelDataType> typeParser) {
        return of(name, c, null, typeFactory, typeParser);
    }

    /** As {@link #of(String, Class, RelDataTypeFactory, Function)}, instances copied from a registered object. */
    public static UserAggregateFunction of(String name, Class<? extends AggregateFunction> c, String objectKey,
                                           RelDataTypeFactory typeFactory,
                                           Function<String, RelDataType> typeParser) {
        AggregateFunction<?, ?> probe = (AggregateFunction<?, ?>) UserFunctions.instantiate(name, c, objectKey);
        Class<?> acc = accumulatorClass(name, c);
        List<Method> accumulates = accMethods(c, "accumulate", acc);
        if (accumulates.isEmpty()) {
            throw new IllegalArgumentException("aggregate function " + name + ": " + c.getName()
                    + " needs a public method accumulate(" + acc.getSimpleName() + " acc, ...)");
        }
        List<Method> retracts = accMethods(c, "retract", acc);
        Method merge = null;
        for (Method m : UserFunctions.methods(c, "merge")) {
            if (m.getParameterCount() == 2 && m.getParameterTypes()[0].isAssignableFrom(acc)
                    && Iterable.class.isAssignableFrom(m.getParameterTypes()[1])) {
                merge = m;
            }
        }
        Method reset = null;
        for (Method m : UserFunctions.methods(c, "resetAccumulator")) {
            if (m.getParameterCount() == 1 && m.getParameterTypes()[0].isAssignableFrom(acc)) {
                reset = m;
            }
        }
        RelDataType result = resultType(name, c, probe, typeFactory, typeParser);
        List<Overload> overloads = new ArrayList<>();
        for (Method m : accumulates) {
            List<ParamType> params = new ArrayList<>();
            Class<?>[] ps = m.getParameterTypes();
            for (int i = 1; i < ps.length; i++) {
                Class<?> p = m.isVarArgs() && i == ps.length - 1 ? ps[i].getComponentType() : ps[i];
                ParamType t = UserTypes.of(p);
                if (t == null) {
                    throw new IllegalArgumentException("aggregate function " + name + ": parameter " + (i + 1)
                            + " of accumulate has type " + p.getSimpleName() + ", which has no SQL type");
                }
                params.add(t);
            }
            RelDataType r = result;
            overloads.add(new Overload(params, m.isVarArgs(), (f, args, b) -> r, Invocation.ofInstance(m, "acc"),
                    false, UserFunctions.signature(name, m).replaceFirst("\\(\\w+(<[^>]*>)?(, )?", "(")));
        }
        return new UserAggregateFunction(name, c, objectKey, accumulates, retracts, merge, reset, result, overloads,
                probe.isDeterministic(), probe.requiresOver(),
                AccumulatorSerializer.of(name, accumulatorType(name, c, acc, probe)), DataViewFields.of(name, acc));
    }

    private static List<Method> accMethods(Class<?> c, String name, Class<?> acc) {
        List<Method> out = new ArrayList<>();
        for (Method m : UserFunctions.methods(c, name)) {
            if (m.getParameterCount() >= 1 && m.getParameterTypes()[0].isAssignableFrom(acc)) {
                out.add(m);
            }
        }
        return out;
    }

    private static Class<?> accumulatorClass(String name, Class<?> c) {
        try {
            Class<?> r = c.getMethod("createAccumulator").getReturnType();
            if (r != Object.class) {
                return r;
            }
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        Class<?> fromGeneric = UserTypes.raw(UserTypes.typeArgument(c, AggregateFunction.class, 1));
        return fromGeneric != null ? fromGeneric : Object.class;
    }

    /**
     * The declared accumulator type, generic arguments included (they type the fields of a generic accumulator). A
     * function that declares only Object is asked for one accumulator here, at plan time: its class is the type.
     */
    private static Type accumulatorType(String name, Class<?> c, Class<?> acc, AggregateFunction<?, ?> probe) {
        if (acc != Object.class) {
            Type generic = UserTypes.typeArgument(c, AggregateFunction.class, 1);
            return UserTypes.raw(generic) == acc ? generic : acc;
        }
        Object sample;
        try {
            sample = probe.createAccumulator();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("aggregate function " + name + ": createAccumulator failed: " + e, e);
        }
        return sample == null ? Object.class : sample.getClass();
    }

    private static RelDataType resultType(String name, Class<?> c, AggregateFunction<?, ?> probe,
                                          RelDataTypeFactory f, Function<String, RelDataType> typeParser) {
        DataType declared = probe.getResultType();
        if (declared != null) {
            return UserTypes.of(declared, f);
        }
        FunctionHint fh = c.getAnnotation(FunctionHint.class);
        if (fh != null && !fh.output().value().isEmpty()) {
            return f.createTypeWithNullability(typeParser.apply(fh.output().value()), true);
        }
        Method getValue;
        try {
            getValue = c.getMethod("getValue", Object.class);
        } catch (NoSuchMethodException e) {
            getValue = null;
        }
        for (Method m : UserFunctions.methods(c, "getValue")) {
            if (m.getParameterCount() == 1 && m.getReturnType() != Object.class) {
                getValue = m;
            }
        }
        if (getValue != null) {
            DataTypeHint dh = getValue.getAnnotation(DataTypeHint.class);
            if (dh != null && !dh.value().isEmpty()) {
                return f.createTypeWithNullability(typeParser.apply(dh.value()), true);
            }
        }
        Type t = UserTypes.typeArgument(c, AggregateFunction.class, 0);
        Class<?> raw = UserTypes.raw(t);
        if ((raw == null || raw == Object.class) && getValue != null) {
            raw = getValue.getReturnType();
        }
        ParamType p = raw == null ? null : UserTypes.of(raw);
        if (p == null || p == ParamType.ANY) {
            throw new IllegalArgumentException("aggregate function " + name + ": cannot infer its result type "
                    + "(AggregateFunction<" + (raw == null ? "?" : raw.getSimpleName()) + ", ...>); override "
                    + "getResultType");
        }
        return p.type(f);
    }

    public String name() {
        return name;
    }

    public Class<? extends AggregateFunction> type() {
        return type;
    }

    /** A new instance for one task. */
    Object newInstance() {
        return UserFunctions.instantiate(name, type, objectKey);
    }

    /** The SQL result type (nullable). */
    public RelDataType resultType() {
        return resultType;
    }

    /** The accumulate signatures, for operand checking. */
    public List<Overload> overloads() {
        return overloads;
    }

    /** True when the class has a retract method (needed over an update stream). */
    public boolean canRetract() {
        return !retracts.isEmpty();
    }

    /** True when the class has {@code merge(ACC, Iterable<ACC>)} (session windows, two-phase aggregation). */
    public boolean canMerge() {
        return merge != null;
    }

    public boolean isDeterministic() {
        return deterministic;
    }

    public boolean requiresOver() {
        return requiresOver;
    }

    /** The accumulate method for these argument types (the same overload the validator chose). */
    Method accumulateFor(List<RelDataType> argTypes) {
        Overload o = Overload.resolve(overloads, argTypes);
        if (o == null) {
            throw new IllegalArgumentException("aggregate function " + name + " has no accumulate method for "
                    + argTypes);
        }
        return accumulates.get(overloads.indexOf(o));
    }

    /** The retract method with the same parameters as {@code accumulate}, or null. */
    Method retractFor(Method accumulate) {
        for (Method m : retracts) {
            if (Arrays.equals(m.getParameterTypes(), accumulate.getParameterTypes())) {
                return m;
            }
        }
        return null;
    }

    Method merge() {
        return merge;
    }

    Method reset() {
        return reset;
    }

    /**
     * A factory of per-task adapters for one aggregate call: the arguments are the fields {@code argFields} of the
     * input row, of SQL types {@code argTypes} (as validated).
     */
    public Supplier<UdafAdapter> adapterFactory(int[] argFields, List<RelDataType> argTypes) {
        Method accumulate = accumulateFor(argTypes);
        int[] fields = argFields.clone();
        List<RelDataType> types = List.copyOf(argTypes);
        return () -> new UdafAdapter(this, accumulate, fields, types);
    }

    /** The serializer of this function's accumulators, chosen from their declared class. */
    public AccumulatorSerializer serializer() {
        return serializer;
    }

    /** The accumulator's MapView and ListView fields. */
    DataViewFields dataViews() {
        return dataViews;
    }

    @Override
    public String toString() {
        return name + "[" + type.getName() + "]";
    }
}
