package dev.rsql.planner.functions.udf;

import dev.rsql.planner.functions.JavaValues;
import dev.rsql.runtime.aggregate.AggregateFunction;
import dev.rsql.runtime.aggregate.ViewField;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.graph.FunctionContext;
import dev.rsql.runtime.types.DataType;
import org.apache.calcite.rel.type.RelDataType;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * One task's instance of a user aggregate function for one aggregate call: creates, updates and reads accumulators
 * through method handles bound once (no reflection per row), converting argument values from the engine's internal
 * representation to the method's Java types and the result back. A failing user method is reported as a
 * {@link FunctionException} naming the function and its arguments.
 *
 * <p>Two ways to use it:
 * <ul>
 *   <li>as the aggregation framework's {@link AggregateFunction}: the accumulator is one VARBINARY field of the
 *   accumulator row holding the serialized accumulator ({@link AccumulatorSerializer}); the last accumulator read is
 *   kept so consecutive updates of the same field skip deserialization. Each {@code MapView} and {@code ListView}
 *   field of the accumulator adds a view field after it ({@link DataViewFields}): in a GROUP BY their elements are
 *   state entries of their own;</li>
 *   <li>directly on accumulator objects: {@link #newAccumulator}, {@link #accumulate(Object, Object[])},
 *   {@link #retract(Object, Object[])}, {@link #merge(Object, List)}, {@link #value}, {@link #reset}.</li>
 * </ul>
 * Call {@link #open} before use and {@link #close} after (the function's own open/close run there).
 */
public final class UdafAdapter implements AggregateFunction {


    private final UserAggregateFunction function;
    private final org.apache.flink.table.functions.AggregateFunction<Object, Object> udaf;
    private final int[] argFields;
    private final MethodHandle accumulate;
    private final MethodHandle retract;
    private final MethodHandle merge;
    private final MethodHandle reset;
    private final Function<Object, Object>[] converters;
    private final boolean[] primitive;
    private final String resultType;
    private final AccumulatorSerializer serializer;
    private final DataViewFields dataViews;
    private final List<DataType> accTypes;
    private final String description;

    private byte[] lastBytes;
    private Object lastAccumulator;

    @SuppressWarnings("unchecked")
    UdafAdapter(UserAggregateFunction function, Method accumulateMethod, int[] argFields, List<RelDataType> argTypes) {
        this.function = function;
        this.udaf = (org.apache.flink.table.functions.AggregateFunction<Object, Object>)
                function.newInstance();
        this.argFields = argFields;
        this.accumulate = spread(accumulateMethod);
        Method retractMethod = function.retractFor(accumulateMethod);
        this.retract = retractMethod == null ? null : spread(retractMethod);
        this.merge = function.merge() == null ? null : bind(function.merge());
        this.reset = function.reset() == null ? null : bind(function.reset());
        Class<?>[] params = accumulateMethod.getParameterTypes();
        if (accumulateMethod.isVarArgs()) {
            throw new IllegalArgumentException("aggregate function " + function.name()
                    + ": varargs accumulate methods are not supported");
        }
        this.converters = new Function[argTypes.size()];
        this.primitive = new boolean[argTypes.size()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = converter(argTypes.get(i).getSqlTypeName().name(), params[i + 1]);
            primitive[i] = params[i + 1].isPrimitive();
        }
        this.resultType = function.resultType().getSqlTypeName().name();
        this.serializer = function.serializer();
        this.dataViews = function.dataViews();
        List<DataType> types = new ArrayList<>();
        types.add(DataType.of(DataType.Kind.VARBINARY).notNull());
        types.addAll(dataViews.types());
        this.accTypes = List.copyOf(types);
        StringBuilder d = new StringBuilder(function.name()).append('(');
        for (int i = 0; i < argFields.length; i++) {
            d.append(i > 0 ? ", " : "").append('$').append(argFields[i]);
        }
        this.description = d.append(')').toString();
    }

    private MethodHandle bind(Method m) {
        try {
            return MethodHandles.publicLookup().unreflect(m).bindTo(udaf);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("aggregate function " + function.name() + ": " + m + " is not public",
                    e);
        }
    }

    /** (acc, a1..an) as one Object[] argument: invokeExact(Object[]). */
    private MethodHandle spread(Method m) {
        MethodHandle h = bind(m);
        return h.asSpreader(Object[].class, m.getParameterCount())
                .asType(MethodType.methodType(void.class, Object[].class));
    }

    // ---- lifecycle -----------------------------------------------------------------------------------------------

    @Override
    public void open(FunctionContext context) throws Exception {
        udaf.open(new FlinkFunctionContext(context));
    }

    @Override
    public void close() throws Exception {
        udaf.close();
    }

    // ---- on accumulator objects ----------------------------------------------------------------------------------

    public Object newAccumulator() {
        try {
            return udaf.createAccumulator();
        } catch (RuntimeException e) {
            throw new FunctionException(function.name() + ".createAccumulator", new Object[0], e);
        }
    }

    /** Adds one row's arguments (internal values, in call order). */
    public void accumulate(Object acc, Object[] args) {
        call(accumulate, "accumulate", acc, args);
    }

    public void retract(Object acc, Object[] args) {
        if (retract == null) {
            throw new UnsupportedOperationException(description + " cannot take back rows: " + function.type().getName()
                    + " has no retract method");
        }
        call(retract, "retract", acc, args);
    }

    public void merge(Object acc, List<Object> others) {
        if (merge == null) {
            throw new UnsupportedOperationException(description + " cannot merge accumulators: "
                    + function.type().getName() + " has no merge(ACC, Iterable<ACC>) method");
        }
        try {
            merge.invoke(acc, (Iterable<Object>) others);
        } catch (RuntimeException | Error e) {
            throw fail("merge", new Object[0], e);
        } catch (Throwable e) {
            throw fail("merge", new Object[0], e);
        }
    }

    /** The result as an internal value of the function's SQL result type. */
    public Object value(Object acc) {
        Object v;
        try {
            v = udaf.getValue(acc);
        } catch (RuntimeException e) {
            throw fail("getValue", new Object[0], e);
        }
        return JavaValues.toRowValue(v, resultType);
    }

    /** Empties an accumulator ({@code resetAccumulator}, or false when the function has none). */
    public boolean reset(Object acc) {
        if (reset == null) {
            return false;
        }
        try {
            reset.invoke(acc);
        } catch (Throwable e) {
            throw fail("resetAccumulator", new Object[0], e);
        }
        return true;
    }

    private void call(MethodHandle h, String method, Object acc, Object[] args) {
        Object[] all = new Object[args.length + 1];
        all[0] = acc;
        try {
            for (int i = 0; i < args.length; i++) {
                Object v = converters[i].apply(args[i]);
                if (v == null && primitive[i]) {
                    return; // a NULL for a primitive parameter: the row does not count, as if filtered out
                }
                all[i + 1] = v;
            }
            h.invokeExact(all);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            throw fail(method, args, e);
        }
    }

    private FunctionException fail(String method, Object[] args, Throwable e) {
        return new FunctionException(function.name() + "." + method, args, e);
    }

    // ---- the aggregation framework's interface -------------------------------------------------------------------

    @Override
    public List<DataType> accumulatorTypes() {
        return accTypes;
    }

    @Override
    public List<ViewField> viewFields() {
        return dataViews.views();
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        store(acc, offset, newAccumulator());
    }

    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        Object a = load(acc, offset);
        accumulate(a, args(input));
        store(acc, offset, a);
    }

    @Override
    public void retract(Object[] acc, int offset, Object[] input) {
        Object a = load(acc, offset);
        retract(a, args(input));
        store(acc, offset, a);
    }

    @Override
    public boolean canRetract() {
        return retract != null;
    }

    @Override
    public boolean canMerge() {
        return merge != null;
    }

    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        Object a = load(acc, offset);
        Object b = serializer.deserialize((byte[]) other[otherOffset]);
        merge(a, new ArrayList<>(Collections.singletonList(b)));
        store(acc, offset, a);
    }

    @Override
    public Object getValue(Object[] acc, int offset) {
        return value(load(acc, offset));
    }

    @Override
    public String name() {
        return description;
    }

    private Object[] args(Object[] input) {
        Object[] args = new Object[argFields.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = input[argFields[i]];
        }
        return args;
    }

    private Object load(Object[] acc, int offset) {
        byte[] bytes = (byte[]) acc[offset];
        Object a = bytes == lastBytes && lastAccumulator != null ? lastAccumulator : serializer.deserialize(bytes);
        if (dataViews.bound(acc, offset)) {
            dataViews.attach(a, acc, offset);
        }
        return a;
    }

    private void store(Object[] acc, int offset, Object accumulator) {
        byte[] bytes = dataViews.bound(acc, offset) ? dataViews.withoutViews(accumulator, serializer::serialize)
                : serializer.serialize(accumulator);
        acc[offset] = bytes;
        lastBytes = bytes;
        lastAccumulator = accumulator;
    }

    /** The serializer of this function's accumulators (for state that keeps them outside an accumulator row). */
    public AccumulatorSerializer serializer() {
        return serializer;
    }

    // ---- argument conversion -------------------------------------------------------------------------------------

    /** Internal value of a SQL type to the Java parameter class (null stays null). */
    static Function<Object, Object> converter(String sqlType, Class<?> p) {
        if (p == Object.class) {
            return v -> JavaValues.toExternal(v, sqlType);
        }
        if (p == Timestamp.class) {
            return v -> v == null ? null : JavaValues.toTimestamp(((Number) v).longValue());
        }
        if (p == LocalDateTime.class) {
            return v -> v == null ? null : JavaValues.toLocalDateTime(((Number) v).longValue());
        }
        if (p == Instant.class) {
            return v -> v == null ? null : JavaValues.toInstant(((Number) v).longValue());
        }
        if (p == java.sql.Date.class) {
            return v -> v == null ? null : JavaValues.toDate(((Number) v).intValue());
        }
        if (p == LocalDate.class) {
            return v -> v == null ? null : JavaValues.toLocalDate(((Number) v).intValue());
        }
        if (p == java.sql.Time.class) {
            return v -> v == null ? null : JavaValues.toTime(((Number) v).intValue());
        }
        if (p == LocalTime.class) {
            return v -> v == null ? null : JavaValues.toLocalTime(((Number) v).intValue());
        }
        if (p == long.class || p == Long.class) {
            return v -> v == null ? null : ((Number) v).longValue();
        }
        if (p == int.class || p == Integer.class) {
            return v -> v == null ? null : ((Number) v).intValue();
        }
        if (p == short.class || p == Short.class) {
            return v -> v == null ? null : ((Number) v).shortValue();
        }
        if (p == byte.class || p == Byte.class) {
            return v -> v == null ? null : ((Number) v).byteValue();
        }
        if (p == double.class || p == Double.class) {
            return v -> v == null ? null : ((Number) v).doubleValue();
        }
        if (p == float.class || p == Float.class) {
            return v -> v == null ? null : ((Number) v).floatValue();
        }
        if (p == BigDecimal.class) {
            return v -> v == null ? null : v instanceof BigDecimal ? v
                    : v instanceof Double || v instanceof Float ? BigDecimal.valueOf(((Number) v).doubleValue())
                    : BigDecimal.valueOf(((Number) v).longValue());
        }
        if (p == char.class || p == Character.class) {
            return v -> v == null ? null : JavaValues.toCharacter(v.toString());
        }
        return v -> v;
    }
}
