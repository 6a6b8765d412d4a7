package dev.rsql.planner.functions;

import dev.rsql.planner.functions.FunctionDoc.Category;
import dev.rsql.runtime.event.EventPattern;
import dev.rsql.runtime.event.TemplateVariables;
import dev.rsql.planner.functions.FunctionDoc.Example;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlOperator;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the built-in functions from declarations like
 * {@code scalar("SPLIT_INDEX", STRING).sig("VARCHAR SPLIT_INDEX(VARCHAR str, VARCHAR sep, INT index)", "splitIndex")}:
 * the SQL signature gives the parameter and result types, the Java method of the same arity and compatible types in
 * the implementing class is found by name. Every declaration also carries its documentation.
 */
final class BuiltinRegistry {

    private static final Pattern SIGNATURE = Pattern.compile(
            "\\s*(TABLE\\([^)]*\\)|\\S+(?:<[^>]*>)?)\\s+(\\w+)\\s*\\((.*)\\)\\s*");

    private final List<SqlOperator> operators = new ArrayList<>();
    private final List<FunctionDoc> docs = new ArrayList<>();

    List<SqlOperator> operators() {
        return operators;
    }

    List<FunctionDoc> docs() {
        return docs;
    }

    /** A scalar function implemented by public static methods of {@code impl}. */
    Builder scalar(String name, Category category, Class<?> impl) {
        return new Builder(name, category, impl, false);
    }

    /** A table function implemented by public static methods of {@code impl} taking the row consumer first. */
    Builder table(String name, Category category, Class<?> impl) {
        return new Builder(name, category, impl, true);
    }

    /** A function provided by Calcite (standard or library operator table): documentation only, or also registered. */
    Builder calcite(String name, Category category) {
        return new Builder(name, category, null, false);
    }

    final class Builder {
        private final String name;
        private final Category category;
        private final Class<?> impl;
        private final boolean table;
        private final List<Overload> overloads = new ArrayList<>();
        private final List<String> signatures = new ArrayList<>();
        private final List<Example> examples = new ArrayList<>();
        private String description;
        private String blinkNote;
        private boolean deterministic = true;
        private boolean dynamic;
        private boolean strict = true;
        private ReturnSpec returns;
        private RsqlTableFunction.RowTypeSpec rowType;
        private SqlOperator calciteOperator;

        Builder(String name, Category category, Class<?> impl, boolean table) {
            this.name = name;
            this.category = category;
            this.impl = impl;
            this.table = table;
            this.strict = !table;
        }

        /** NULL arguments are passed to the method (which handles them) instead of giving NULL. */
        Builder nonStrict() {
            this.strict = false;
            return this;
        }

        Builder nonDeterministic() {
            this.deterministic = false;
            return this;
        }

        /** Depends on the current time: never evaluated once for the whole job. */
        Builder dynamic() {
            this.deterministic = false;
            this.dynamic = true;
            return this;
        }

        /** The result type of the following signatures when the declared name is not enough. */
        Builder returns(ReturnSpec spec) {
            this.returns = spec;
            return this;
        }

        Builder rowType(RsqlTableFunction.RowTypeSpec spec) {
            this.rowType = spec;
            return this;
        }

        /** Registers Calcite's operator under this documentation (a library function we keep as it is). */
        Builder operator(SqlOperator op) {
            this.calciteOperator = op;
            return this;
        }

        /** A documented signature without an implementation here (Calcite's own). */
        Builder sig(String signature) {
            signatures.add(signature.trim());
            return this;
        }

        /** An implemented signature the documentation does not show (internal forms, e.g. UUID's call site). */
        Builder hiddenSig(String signature, String method) {
            sig(signature, method);
            signatures.remove(signatures.size() - 1);
            return this;
        }

        /** A signature implemented by the public static method {@code method} of the implementing class. */
        Builder sig(String signature, String method) {
            Matcher m = SIGNATURE.matcher(signature);
            if (!m.matches()) {
                throw new IllegalArgumentException("bad signature: " + signature);
            }
            String result = m.group(1);
            List<ParamType> params = new ArrayList<>();
            boolean varargs = false;
            String list = m.group(3).trim();
            if (!list.isEmpty()) {
                for (String p : list.split(",")) {
                    String[] parts = p.trim().split("\\s+");
                    String type = parts[0];
                    if (type.endsWith("...")) {
                        varargs = true;
                        type = type.substring(0, type.length() - 3);
                    }
                    params.add(ParamType.parse(type));
                }
            }
            Method javaMethod = findMethod(impl, method, params, varargs, table);
            ReturnSpec spec = returns != null ? returns
                    : table ? null
                    : result.equals("T") ? ReturnSpec.leastRestrictive(0)
                    : ReturnSpec.of(ParamType.parse(result.replaceAll("<.*>", "")));
            String shown = signature.trim();
            overloads.add(new Overload(params, varargs, spec, Invocation.ofStatic(javaMethod, false), strict, shown));
            signatures.add(shown);
            return this;
        }

        Builder doc(String text) {
            this.description = text;
            return this;
        }

        Builder blink(String note) {
            this.blinkNote = note;
            return this;
        }

        Builder example(String sql, String result) {
            examples.add(new Example(sql, result, true));
            return this;
        }

        /** An example whose result depends on the clock or randomness: run by the tests, result not compared. */
        Builder exampleUnchecked(String sql, String result) {
            examples.add(new Example(sql, result, false));
            return this;
        }

        void add() {
            if (description == null) {
                throw new IllegalStateException(name + " has no description");
            }
            if (impl != null) {
                if (table) {
                    operators.add(RsqlTableFunction.create(name, overloads, rowType,
                            RsqlTableFunction.Style.STATIC_CONSUMER, null, t -> BuiltinRegistry::rowFields,
                            deterministic, false));
                } else {
                    operators.add(RsqlScalarFunction.create(name, overloads, deterministic, dynamic, null));
                }
            } else if (calciteOperator != null) {
                operators.add(calciteOperator);
            }
            docs.add(new FunctionDoc(name, category, List.copyOf(signatures), description, blinkNote,
                    List.copyOf(examples), impl != null ? "engine" : "Calcite"));
        }
    }

    private static Object[] rowFields(Object row) {
        return (Object[]) row;
    }

    /** A table function's row: fixed columns {@code f0, f1, ...}. */
    static RsqlTableFunction.RowTypeSpec columns(ParamType... types) {
        return (f, args, b) -> columns(f, Arrays.asList(types));
    }

    static RelDataType columns(RelDataTypeFactory f, List<ParamType> types) {
        RelDataTypeFactory.Builder builder = f.builder();
        for (int i = 0; i < types.size(); i++) {
            builder.add("f" + i, types.get(i).type(f));
        }
        return builder.build();
    }

    /**
     * The public static method of {@code impl} named {@code name} whose SQL-visible parameters (after a leading
     * {@link ZoneId} or, for table functions, {@link Consumer}) fit the SQL parameter types, preferring exact Java
     * types (INT: int/Integer before long/Long).
     */
    static Method findMethod(Class<?> impl, String name, List<ParamType> params, boolean varargs, boolean table) {
        Method best = null;
        int bestScore = Integer.MAX_VALUE;
        // Candidates in a fixed order (getMethods' is unspecified), so that ties resolve alike in every run; sorted
        // after filtering by name: rendering every method of the class for each signature was ~7 % of the main
        // thread's start-up CPU (sampled).
        List<Method> methods = new ArrayList<>();
        for (Method m : impl.getMethods()) {
            if (m.getName().equals(name) && Modifier.isStatic(m.getModifiers()) && m.isVarArgs() == varargs) {
                methods.add(m);
            }
        }
        methods.sort(Comparator.comparing(Method::toGenericString));
        for (Method m : methods) {
            List<Class<?>> p = new ArrayList<>(Arrays.asList(m.getParameterTypes()));
            if (table) {
                if (p.isEmpty() || p.get(0) != Consumer.class) {
                    continue;
                }
                p.remove(0);
            } else if (!p.isEmpty() && p.get(0) == ZoneId.class) {
                p.remove(0);
            }
            if (p.size() != params.size()) {
                continue;
            }
            int score = 0;
            for (int i = 0; i < p.size() && score >= 0; i++) {
                Class<?> j = varargs && i == p.size() - 1 ? p.get(i).getComponentType() : p.get(i);
                int s = fit(params.get(i), j);
                score = s < 0 ? -1 : score + s;
            }
            if (score >= 0 && score < bestScore) {
                best = m;
                bestScore = score;
            }
        }
        if (best == null) {
            throw new IllegalStateException("no method " + impl.getSimpleName() + "." + name + " for " + params
                    + (varargs ? "..." : ""));
        }
        return best;
    }

    private static final Map<ParamType, List<Class<?>>> EXACT = Map.ofEntries(
            Map.entry(ParamType.VARCHAR, List.of(String.class, Regex.class, DateFormat.class, ZoneId.class,
                    JsonPath.class, EventPattern.class, TemplateVariables.class)),
            Map.entry(ParamType.INT, List.of(int.class, Integer.class)),
            Map.entry(ParamType.BIGINT, List.of(long.class, Long.class)),
            Map.entry(ParamType.SMALLINT, List.of(short.class, Short.class)),
            Map.entry(ParamType.TINYINT, List.of(byte.class, Byte.class)),
            Map.entry(ParamType.DOUBLE, List.of(double.class, Double.class)),
            Map.entry(ParamType.FLOAT, List.of(float.class, Float.class)),
            Map.entry(ParamType.DECIMAL, List.of(java.math.BigDecimal.class)),
            Map.entry(ParamType.BOOLEAN, List.of(boolean.class, Boolean.class)),
            Map.entry(ParamType.TIMESTAMP, List.of(long.class, Long.class)),
            Map.entry(ParamType.DATE, List.of(int.class, Integer.class)),
            Map.entry(ParamType.TIME, List.of(int.class, Integer.class)),
            Map.entry(ParamType.VARBINARY, List.of(byte[].class)),
            Map.entry(ParamType.MAP, List.of(Map.class)),
            Map.entry(ParamType.ANY, List.of(Object.class)));

    private static int fit(ParamType t, Class<?> j) {
        if (EXACT.get(t).contains(j)) {
            return 0;
        }
        if ((t == ParamType.INT || t == ParamType.SMALLINT || t == ParamType.TINYINT)
                && (j == long.class || j == Long.class)) {
            return 1;
        }
        return -1;
    }
}
