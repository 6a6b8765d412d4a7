package dev.rsql.planner.functions;

import dev.rsql.planner.calcite.RsqlTypeSystem;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.planner.functions.udf.UdafAdapter;
import dev.rsql.planner.functions.udf.UserAggregateFunction;
import dev.rsql.planner.functions.udf.UserAggregateOperator;
import dev.rsql.planner.functions.udf.UserFunctions;
import dev.rsql.runtime.graph.FunctionContext;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.spi.ExtClassLoader;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The UDAF adapter against the Flink/Blink API, with aggregate functions from a jar built during the test: class
 * loading, accumulate/retract/merge/getValue/reset through method handles, accumulators stored as bytes, job
 * parameters in open. (The aggregation operators call it through {@code dev.rsql.runtime.aggregate.AggregateFunction}.)
 */
class AggregateFunctionAdapterTest {

    @TempDir
    static Path ext;
    private static ClassLoader loader;
    private static final JavaTypeFactoryImpl TYPES = new JavaTypeFactoryImpl(RsqlTypeSystem.INSTANCE);

    @BeforeAll
    static void buildJar() throws Exception {
        loader = new ExtClassLoader(List.of(UdfJars.build("flink-agg", ext)),
                AggregateFunctionAdapterTest.class.getClassLoader());
    }

    private static UserAggregateFunction load(String name, String className) {
        SqlOperator op = new UserFunctions(TYPES, text -> {
            throw new UnsupportedOperationException(text);
        }).load(name, className, loader);
        assertTrue(op instanceof UserAggregateOperator, op.getClass().getName());
        return ((UserAggregateOperator) op).function();
    }

    private static RelDataType type(SqlTypeName t) {
        return TYPES.createTypeWithNullability(TYPES.createSqlType(t), true);
    }

    private static FunctionContext context(Map<String, String> parameters) {
        return new FunctionContext() {
            @Override
            public String getJobParameter(String key, String defaultValue) {
                return parameters.getOrDefault(key, defaultValue);
            }

            @Override
            public String taskId() {
                return "t-0";
            }
        };
    }

    @Test
    void describesTheFunction() {
        UserAggregateFunction count = load("cnt", "com.example.udaf.CountUdaf");
        assertEquals(SqlTypeName.BIGINT, count.resultType().getSqlTypeName());
        assertTrue(count.canRetract());
        assertTrue(count.canMerge());
        UserAggregateFunction avg = load("wavg", "com.example.udaf.WeightedAvg");
        assertEquals(SqlTypeName.DOUBLE, avg.resultType().getSqlTypeName());
        assertEquals(1, avg.overloads().size());
        assertEquals(List.of(ParamType.BIGINT, ParamType.INT), avg.overloads().get(0).params());
    }

    @Test
    void aggregatesThroughTheFrameworkInterfaceWithSerializedAccumulators() throws Exception {
        UserAggregateFunction avg = load("wavg", "com.example.udaf.WeightedAvg");
        UdafAdapter f = avg.adapterFactory(new int[] {1, 2}, List.of(type(SqlTypeName.BIGINT),
                type(SqlTypeName.INTEGER))).get();
        f.open(context(Map.of("avg.scale", "2")));
        assertEquals(1, f.accumulatorTypes().size());
        assertTrue(f.canRetract());

        Object[] acc = new Object[1];
        f.createAccumulator(acc, 0);
        assertTrue(acc[0] instanceof byte[]);
        assertNull(f.getValue(acc, 0));
        f.accumulate(acc, 0, new Object[] {"k", 10L, 2});
        f.accumulate(acc, 0, new Object[] {"k", 20, 1}); // an INT value for the BIGINT parameter
        f.accumulate(acc, 0, new Object[] {"k", 99L, null}); // NULL for a primitive parameter: ignored
        assertEquals(2 * 40.0 / 3, (Double) f.getValue(acc, 0), 1e-9);
        f.retract(acc, 0, new Object[] {"k", 20L, 1});
        assertEquals(2 * 20.0 / 2, f.getValue(acc, 0));

        // a copy of the bytes read by another adapter (another task, or after a restore) has the same state
        UdafAdapter g = avg.adapterFactory(new int[] {1, 2}, List.of(type(SqlTypeName.BIGINT),
                type(SqlTypeName.INTEGER))).get();
        g.open(context(Map.of()));
        Object[] copy = {((byte[]) acc[0]).clone()};
        assertEquals(20.0 / 2, g.getValue(copy, 0));

        Object[] other = new Object[1];
        f.createAccumulator(other, 0);
        f.accumulate(other, 0, new Object[] {"k", 30L, 2});
        f.merge(acc, 0, other, 0);
        assertEquals(2 * (20.0 + 60.0) / 4, f.getValue(acc, 0));
        f.close();
    }

    @Test
    void worksOnAccumulatorObjects() throws Exception {
        UserAggregateFunction avg = load("wavg", "com.example.udaf.WeightedAvg");
        UdafAdapter f = avg.adapterFactory(new int[] {0, 1}, List.of(type(SqlTypeName.BIGINT),
                type(SqlTypeName.INTEGER))).get();
        f.open(context(Map.of()));
        Object a = f.newAccumulator();
        f.accumulate(a, new Object[] {5L, 1});
        f.accumulate(a, new Object[] {7L, 1});
        Object b = f.newAccumulator();
        f.accumulate(b, new Object[] {9L, 1});
        f.merge(a, new ArrayList<>(List.of(b)));
        assertEquals(7.0, f.value(a));

        Class<?> c = loader.loadClass("com.example.udaf.WeightedAvg");
        Method seen = c.getMethod("seen", Object.class);
        Object restored = f.serializer().deserialize(f.serializer().serialize(a));
        assertEquals(List.of("5x1", "7x1", "9x1"), seen.invoke(null, restored));
        assertEquals(21L, c.getMethod("sum", Object.class).invoke(null, restored));
        assertArrayEquals(f.serializer().serialize(a), f.serializer().serialize(restored));

        assertTrue(f.reset(a));
        assertNull(f.value(a));
    }

    @Test
    void countUdafFromTheBlinkDocumentation() {
        UserAggregateFunction count = load("cnt", "com.example.udaf.CountUdaf");
        UdafAdapter f = count.adapterFactory(new int[] {0}, List.of(type(SqlTypeName.VARCHAR))).get();
        Object[] acc = new Object[1];
        f.createAccumulator(acc, 0);
        for (String s : List.of("a", "b", "c")) {
            f.accumulate(acc, 0, new Object[] {s});
        }
        f.retract(acc, 0, new Object[] {"a"});
        assertEquals(2L, f.getValue(acc, 0));
        assertFalse(f.reset(f.newAccumulator()), "CountUdaf has no resetAccumulator");
        assertEquals("cnt($0)", f.name());
    }

    @Test
    void aFailingAccumulateNamesTheFunctionAndArguments() {
        UserAggregateFunction avg = load("wavg", "com.example.udaf.WeightedAvg");
        UdafAdapter f = avg.adapterFactory(new int[] {0, 1}, List.of(type(SqlTypeName.BIGINT),
                type(SqlTypeName.INTEGER))).get();
        Object[] acc = new Object[1];
        f.createAccumulator(acc, 0);
        FunctionException e = assertThrows(FunctionException.class,
                () -> f.accumulate(acc, 0, new Object[] {"not a number", 1}));
        assertTrue(e.getMessage().startsWith("wavg.accumulate("), e.getMessage());
    }

    @Test
    void aggregateCallsAreValidatedByTheAccumulateSignatures() throws Exception {
        String script = "CREATE FUNCTION wavg AS 'com.example.udaf.WeightedAvg';\n"
                + TestJob.source("ag", "k VARCHAR, v BIGINT, w INT")
                + TestJob.sink("o", "k VARCHAR, a DOUBLE")
                + "INSERT INTO o SELECT k, wavg(v, w, w) FROM ag GROUP BY k";
        dev.rsql.planner.PlannerContext ctx = new dev.rsql.planner.PlannerContext(
                dev.rsql.runtime.config.Options.empty(), loader, n -> null);
        Exception e = assertThrows(dev.rsql.planner.PlanningException.class,
                () -> new dev.rsql.planner.ScriptPlanner(ctx).plan("t", script.replace("${RUN}", "x")));
        assertTrue(e.getMessage().contains("wavg(BIGINT, INT)"), e.getMessage());
    }
}
