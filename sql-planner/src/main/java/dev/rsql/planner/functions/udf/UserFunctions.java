package dev.rsql.planner.functions.udf;

import dev.rsql.planner.functions.Invocation;
import dev.rsql.planner.functions.Overload;
import dev.rsql.planner.functions.ParamType;
import dev.rsql.planner.functions.ReturnSpec;
import dev.rsql.planner.functions.RsqlScalarFunction;
import dev.rsql.planner.functions.RsqlTableFunction;
import dev.rsql.planner.functions.UdfInstance;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.flink.api.java.tuple.Tuple;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.functions.AggregateFunction;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.functions.TableFunction;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Loads the class of a {@code CREATE FUNCTION f AS 'class'} and makes an operator of it. Accepted styles:
 * <ol>
 *   <li>Blink/Flink UDX classes extending {@link ScalarFunction}, {@link TableFunction} or {@link AggregateFunction}
 *   ({@code eval} overloads, {@code collect}, {@code open/close}, {@code getResultType}, {@code isDeterministic},
 *   {@code @FunctionHint/@DataTypeHint} output types);</li>
 *   <li>plain classes with public {@code eval} methods (rsqldb's bean style: optional {@code open()/close()}; an
 *   {@code eval} returning a list is a table function, a list of maps being read by the column names of
 *   {@code AS T(a, b)});</li>
 *   <li>any class with a public method named like the function (static or, with a public no-argument constructor,
 *   instance).</li>
 * </ol>
 * Parameter and result types follow from the Java signatures; the generated code calls the methods directly.
 */
public final class UserFunctions {

    private final RelDataTypeFactory typeFactory;
    private final Function<String, RelDataType> typeParser;

    /** @param typeParser parses a SQL type written as text (e.g. from {@code @DataTypeHint("ROW<a INT>")}) */
    public UserFunctions(RelDataTypeFactory typeFactory, Function<String, RelDataType> typeParser) {
        this.typeFactory = typeFactory;
        this.typeParser = typeParser;
    }

    /** The operator for a function; IllegalArgumentException with a message for the user when the class is unfit. */
    public SqlOperator load(String name, String className, ClassLoader loader) {
        Class<?> c;
        try {
            c = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("function " + name + ": class '" + className
                    + "' not found in the jars in ext/ or on the class path");
        } catch (LinkageError e) {
            throw new IllegalArgumentException("function " + name + ": class '" + className + "' cannot be loaded: "
                    + e, e);
        }
        return load(name, c, null);
    }

    /**
     * The operator for a function the application passed as an object (an engine's pre-registered function): the
     * same styles as a class, with each task's instance a copy of the object ({@link FunctionObjects}).
     */
    public SqlOperator load(String name, Object function) {
        return load(name, function.getClass(), FunctionObjects.register(name, function));
    }

    /** @param key the registered function object's key, or null to create instances with the constructor */
    private SqlOperator load(String name, Class<?> c, String key) {
        String className = c.getName();
        if (!Modifier.isPublic(c.getModifiers()) || c.isMemberClass() && !Modifier.isStatic(c.getModifiers())) {
            throw new IllegalArgumentException("function " + name + ": class " + className
                    + " must be public (and static if nested)");
        }
        try {
            if (AggregateFunction.class.isAssignableFrom(c)) {
                return new UserAggregateOperator(UserAggregateFunction.of(name, c.asSubclass(AggregateFunction.class),
                        key, typeFactory, typeParser));
            }
            if (TableFunction.class.isAssignableFrom(c)) {
                return flinkTable(name, c, key);
            }
            if (ScalarFunction.class.isAssignableFrom(c)) {
                return scalar(name, c, methods(c, "eval"), true, key);
            }
            if (UserDefinedFunction.class.isAssignableFrom(c)) {
                throw new IllegalArgumentException("function " + name + ": " + className
                        + " is a kind of user-defined function this engine does not support");
            }
            List<Method> evals = methods(c, "eval");
            if (evals.isEmpty()) {
                evals = methodsIgnoreCase(c, name);
            }
            if (evals.isEmpty()) {
                throw new IllegalArgumentException("function " + name + ": class " + className
                        + " has no public method named eval or " + name);
            }
            boolean lists = evals.stream().anyMatch(m -> returnsRows(m.getReturnType()));
            if (lists) {
                if (!evals.stream().allMatch(m -> returnsRows(m.getReturnType()))) {
                    throw new IllegalArgumentException("function " + name + ": some methods return lists (a table "
                            + "function) and some do not");
                }
                return beanTable(name, c, evals, key);
            }
            return scalar(name, c, evals, false, key);
        } catch (LinkageError e) {
            throw new IllegalArgumentException("function " + name + ": class " + className + " needs a class that "
                    + "is missing (put its library in the same jar): " + e, e);
        }
    }

    // ---- scalar --------------------------------------------------------------------------------------------------

    private RsqlScalarFunction scalar(String name, Class<?> c, List<Method> evals, boolean flink, String key) {
        if (evals.isEmpty()) {
            throw new IllegalArgumentException("function " + name + ": " + c.getName() + " has no public eval method");
        }
        Object probe = needsInstance(evals) || flink ? instantiate(name, c, key) : null;
        UdfInstance instance = needsInstance(evals) ? UdfInstance.of(name, c, key) : null;
        boolean customResult = flink && overrides(c, ScalarFunction.class, "getResultType", Object[].class,
                Class[].class);
        List<Overload> overloads = new ArrayList<>();
        for (Method m : evals) {
            List<ParamType> params = params(name, m);
            ReturnSpec spec = scalarResult(name, c, m, customResult ? (ScalarFunction) probe : null);
            Invocation inv = Modifier.isStatic(m.getModifiers()) ? Invocation.ofStatic(m, true)
                    : Invocation.ofInstance(m, instance.field());
            overloads.add(new Overload(params, m.isVarArgs(), spec, inv, false, signature(name, m)));
        }
        boolean deterministic = !(probe instanceof UserDefinedFunction) || ((UserDefinedFunction) probe).isDeterministic();
        return RsqlScalarFunction.create(name, overloads, deterministic, false, instance);
    }

    private ReturnSpec scalarResult(String name, Class<?> c, Method m, ScalarFunction probe) {
        RelDataType hinted = hintedOutput(m, c);
        if (hinted != null) {
            return (f, args, b) -> hinted;
        }
        ParamType fromJava = UserTypes.of(m.getReturnType());
        if (m.getReturnType() == Object.class) {
            fromJava = null;
        }
        if (fromJava == null && probe == null) {
            throw new IllegalArgumentException("function " + name + ": cannot infer the result type of "
                    + signature(name, m) + " returning " + m.getReturnType().getSimpleName()
                    + "; override getResultType or annotate it with @DataTypeHint");
        }
        ParamType java = fromJava;
        if (probe == null) {
            return ReturnSpec.of(java);
        }
        Class<?>[] argClasses = m.getParameterTypes();
        return (f, args, binding) -> {
            DataType t = probe.getResultType(literals(binding, argClasses, m.isVarArgs()), argClasses);
            if (t != null) {
                return UserTypes.of(t, f);
            }
            if (java == null) {
                throw new IllegalArgumentException("function " + name + ": getResultType returned null and "
                        + signature(name, m) + " returns " + m.getReturnType().getSimpleName());
            }
            return java.type(f);
        };
    }

    // ---- table functions -----------------------------------------------------------------------------------------

    private RsqlTableFunction flinkTable(String name, Class<?> c, String key) {
        List<Method> evals = methods(c, "eval");
        if (evals.isEmpty()) {
            throw new IllegalArgumentException("function " + name + ": " + c.getName() + " has no public eval method");
        }
        TableFunction<?> probe = (TableFunction<?>) instantiate(name, c, key);
        UdfInstance instance = UdfInstance.of(name, c, key);
        boolean customResult = overrides(c, TableFunction.class, "getResultType", Object[].class, Class[].class);
        RelDataType hinted = hintedOutput(evals.get(0), c);
        RelDataType fromGeneric = hinted != null || customResult ? null : genericRowType(name, c);
        List<Overload> overloads = new ArrayList<>();
        for (Method m : evals) {
            Invocation inv = Modifier.isStatic(m.getModifiers()) ? Invocation.ofStatic(m, true)
                    : Invocation.ofInstance(m, instance.field());
            overloads.add(new Overload(params(name, m), m.isVarArgs(), null, inv, false, signature(name, m)));
        }
        RsqlTableFunction.RowTypeSpec spec = (f, args, binding) -> {
            RelDataType t = hinted != null ? hinted : fromGeneric;
            if (customResult) {
                Method m = pick(evals, args);
                DataType dt = probe.getResultType(literals(binding, m.getParameterTypes(), m.isVarArgs()),
                        m.getParameterTypes());
                if (dt == null) {
                    t = genericRowType(name, c);
                } else {
                    t = UserTypes.of(dt, f);
                }
            }
            return asRow(t, f);
        };
        return RsqlTableFunction.create(name, overloads, spec, RsqlTableFunction.Style.COLLECTOR, instance,
                RowConverters::forRowType, probe.isDeterministic(), false);
    }

    /** The overload of a getResultType call (the validator has checked the call already). */
    private static Method pick(List<Method> evals, List<RelDataType> args) {
        for (Method m : evals) {
            if (m.getParameterCount() == args.size() || m.isVarArgs()) {
                return m;
            }
        }
        return evals.get(0);
    }

    /** The row type of {@code TableFunction<T>} from T: an atomic type (one column) or a TupleN. */
    private RelDataType genericRowType(String name, Class<?> c) {
        Type t = UserTypes.typeArgument(c, TableFunction.class, 0);
        Class<?> raw = UserTypes.raw(t);
        if (raw == null) {
            throw new IllegalArgumentException("function " + name + ": cannot tell the type of the rows "
                    + c.getSimpleName() + " emits; declare TableFunction<String>, TableFunction<Tuple2<...>> or "
                    + "override getResultType");
        }
        if (Tuple.class.isAssignableFrom(raw)) {
            if (!(t instanceof ParameterizedType)) {
                throw new IllegalArgumentException("function " + name + ": declare the field types of " + raw.getSimpleName()
                        + ", e.g. TableFunction<Tuple2<String, Long>>");
            }
            RelDataTypeFactory.Builder b = typeFactory.builder();
            Type[] fields = ((ParameterizedType) t).getActualTypeArguments();
            for (int i = 0; i < fields.length; i++) {
                ParamType p = UserTypes.of(UserTypes.raw(fields[i]) == null ? Object.class : UserTypes.raw(fields[i]));
                if (p == null || p == ParamType.ANY) {
                    throw new IllegalArgumentException("function " + name + ": tuple field " + i + " has type "
                            + fields[i].getTypeName() + ", which has no SQL type");
                }
                b.add("f" + i, p.type(typeFactory));
            }
            return b.build();
        }
        if (raw == Row.class) {
            throw new IllegalArgumentException("function " + name + " emits Row: declare its fields by overriding "
                    + "getResultType (DataTypes.createRowType(...)) or with @FunctionHint(output = "
                    + "@DataTypeHint(\"ROW<...>\"))");
        }
        ParamType p = UserTypes.of(raw);
        if (p == null || p == ParamType.ANY) {
            throw new IllegalArgumentException("function " + name + ": rows of type " + raw.getSimpleName()
                    + " are not supported; emit a Tuple or Row, or an atomic type");
        }
        return asRow(p.type(typeFactory), typeFactory);
    }

    private static RelDataType asRow(RelDataType t, RelDataTypeFactory f) {
        if (t.isStruct()) {
            return t;
        }
        return f.builder().add("f0", t).build();
    }

    private RsqlTableFunction beanTable(String name, Class<?> c, List<Method> evals, String key) {
        UdfInstance instance = needsInstance(evals) ? UdfInstance.of(name, c, key) : null;
        if (instance != null) {
            instantiate(name, c, key);
        }
        RelDataType single = null;
        boolean byAlias = false;
        for (Method m : evals) {
            Class<?> element = elementClass(m);
            ParamType p = element == null ? null : UserTypes.of(element);
            if (p == null || p == ParamType.ANY || p == ParamType.MAP) {
                byAlias = true;
            } else {
                single = asRow(p.type(typeFactory), typeFactory);
            }
        }
        List<Overload> overloads = new ArrayList<>();
        for (Method m : evals) {
            Invocation inv = Modifier.isStatic(m.getModifiers()) ? Invocation.ofStatic(m, true)
                    : Invocation.ofInstance(m, instance.field());
            overloads.add(new Overload(params(name, m), m.isVarArgs(), null, inv, false, signature(name, m)));
        }
        RelDataType fixed = byAlias ? null : single;
        return RsqlTableFunction.create(name, overloads, (f, args, b) -> fixed, RsqlTableFunction.Style.RETURNS_LIST,
                instance, RowConverters::forRowType, true, byAlias);
    }

    private static boolean returnsRows(Class<?> r) {
        return Iterable.class.isAssignableFrom(r) || r.isArray() && r != byte[].class;
    }

    /** The element class of a method returning {@code List<E>} or {@code E[]}, or null if unknown. */
    private static Class<?> elementClass(Method m) {
        Class<?> r = m.getReturnType();
        if (r.isArray()) {
            return r.getComponentType();
        }
        Type t = m.getGenericReturnType();
        if (t instanceof ParameterizedType) {
            Type[] args = ((ParameterizedType) t).getActualTypeArguments();
            if (args.length == 1) {
                return UserTypes.raw(args[0]);
            }
        }
        return null;
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    private List<ParamType> params(String name, Method m) {
        List<ParamType> params = new ArrayList<>();
        Class<?>[] ps = m.getParameterTypes();
        for (int i = 0; i < ps.length; i++) {
            Class<?> p = m.isVarArgs() && i == ps.length - 1 ? ps[i].getComponentType() : ps[i];
            ParamType t = UserTypes.of(p);
            if (t == null) {
                throw new IllegalArgumentException("function " + name + ": parameter " + (i + 1) + " of "
                        + signature(name, m) + " has type " + p.getSimpleName() + ", which has no SQL type");
            }
            params.add(t);
        }
        return params;
    }

    /** The output type declared by {@code @FunctionHint(output = ...)} or {@code @DataTypeHint} on m or c. */
    private RelDataType hintedOutput(Method m, Class<?> c) {
        String text = null;
        FunctionHint fh = m.getAnnotation(FunctionHint.class);
        if (fh == null) {
            fh = c.getAnnotation(FunctionHint.class);
        }
        if (fh != null && !fh.output().value().isEmpty()) {
            text = fh.output().value();
        }
        DataTypeHint dh = m.getAnnotation(DataTypeHint.class);
        if (text == null && dh != null && !dh.value().isEmpty()) {
            text = dh.value();
        }
        if (text == null) {
            return null;
        }
        try {
            return typeFactory.createTypeWithNullability(typeParser.apply(text), true);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid type '" + text + "' in a @DataTypeHint of " + c.getName()
                    + ": " + e.getMessage(), e);
        }
    }

    /** Values of literal arguments (null for the others), as the parameter classes, for getResultType. */
    private static Object[] literals(SqlOperatorBinding binding, Class<?>[] params, boolean varargs) {
        Object[] values = new Object[binding.getOperandCount()];
        for (int i = 0; i < values.length; i++) {
            if (!binding.isOperandLiteral(i, false) || binding.isOperandNull(i, false)) {
                continue;
            }
            Class<?> p = varargs && i >= params.length - 1 ? params[params.length - 1].getComponentType()
                    : i < params.length ? params[i] : Object.class;
            values[i] = literal(binding, i, p);
        }
        return values;
    }

    private static Object literal(SqlOperatorBinding binding, int i, Class<?> p) {
        List<Class<?>> tries = new ArrayList<>();
        if (p.isPrimitive()) {
            tries.add(box(p));
        } else if (p != Object.class) {
            tries.add(p);
        }
        SqlTypeName t = binding.getOperandType(i).getSqlTypeName();
        tries.add(t == SqlTypeName.CHAR || t == SqlTypeName.VARCHAR ? String.class
                : t == SqlTypeName.BOOLEAN ? Boolean.class : java.math.BigDecimal.class);
        for (Class<?> k : tries) {
            try {
                Object v = binding.getOperandLiteralValue(i, k);
                if (v != null) {
                    return v;
                }
            } catch (RuntimeException e) {
                // try the next class
            }
        }
        return null;
    }

    private static Class<?> box(Class<?> p) {
        return Array.get(Array.newInstance(p, 1), 0).getClass();
    }

    private static boolean needsInstance(List<Method> methods) {
        return methods.stream().anyMatch(m -> !Modifier.isStatic(m.getModifiers()));
    }

    /** An instance of a function: a copy of its registered object ({@code key} not null), else a new one. */
    static Object instantiate(String name, Class<?> c, String key) {
        return key != null ? FunctionObjects.instance(key) : instantiate(name, c);
    }

    static Object instantiate(String name, Class<?> c) {
        try {
            return c.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("function " + name + ": class " + c.getName()
                    + " needs a public constructor without arguments");
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new IllegalArgumentException("function " + name + ": the constructor of " + c.getName()
                    + " failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("function " + name + ": cannot create " + c.getName() + ": " + e, e);
        }
    }

    /** True when {@code c} overrides {@code base.method(params)}. */
    static boolean overrides(Class<?> c, Class<?> base, String method, Class<?>... params) {
        try {
            return c.getMethod(method, params).getDeclaringClass() != base;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** Public methods of c named {@code name}, in a stable order; no bridges. */
    static List<Method> methods(Class<?> c, String name) {
        List<Method> out = new ArrayList<>();
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name) && !m.isBridge() && !m.isSynthetic()
                    && m.getDeclaringClass() != Object.class) {
                out.add(m);
            }
        }
        out.sort(Comparator.comparing(Method::toGenericString));
        return out;
    }

    private static List<Method> methodsIgnoreCase(Class<?> c, String name) {
        List<Method> out = new ArrayList<>();
        for (Method m : c.getMethods()) {
            if (m.getName().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)) && !m.isBridge()
                    && !m.isSynthetic() && m.getDeclaringClass() != Object.class) {
                out.add(m);
            }
        }
        out.sort(Comparator.comparing(Method::toGenericString));
        return out;
    }

    static String signature(String name, Method m) {
        StringBuilder sb = new StringBuilder(name).append('(');
        Class<?>[] ps = m.getParameterTypes();
        for (int i = 0; i < ps.length; i++) {
            Class<?> p = m.isVarArgs() && i == ps.length - 1 ? ps[i].getComponentType() : ps[i];
            ParamType t = UserTypes.of(p);
            sb.append(i > 0 ? ", " : "").append(t == null ? p.getSimpleName() : t.sqlName())
                    .append(m.isVarArgs() && i == ps.length - 1 ? "..." : "");
        }
        return sb.append(')').toString();
    }
}
