package dev.rsql.planner.functions;

import dev.rsql.runtime.event.EventPattern;
import dev.rsql.runtime.event.TemplateVariables;
import dev.rsql.runtime.graph.FunctionException;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.CatchBlock;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.linq4j.tree.Statement;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Generates the call of a function's Java method inside Calcite's expression code: arguments converted to the
 * method's parameter types, NULL handling, and a try/catch that turns any exception into a {@link FunctionException}
 * naming the function and its arguments:
 *
 * <pre>{@code
 * String f_value = null;
 * if (!(a == null)) {                       // strict, or a primitive parameter
 *   try {
 *     f_value = StringFunctions.splitIndex(a, ",", 1);
 *   } catch (VirtualMachineError e) { throw e; }
 *     catch (Throwable e) { throw new FunctionException("SPLIT_INDEX", new Object[] {a, ",", 1}, e); }
 * }
 * }</pre>
 */
public final class CallCodegen {

    private static final JavaTypeFactory JAVA_TYPES = new JavaTypeFactoryImpl();
    private static final Method BLOCK_BUILDER;

    static {
        try {
            BLOCK_BUILDER = RexToLixTranslator.class.getDeclaredMethod("getBlockBuilder");
            BLOCK_BUILDER.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private CallCodegen() {
    }

    /** The block statements are being added to (Calcite keeps its accessor package-private). */
    static BlockBuilder block(RexToLixTranslator translator) {
        try {
            return (BlockBuilder) BLOCK_BUILDER.invoke(translator);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach Calcite's block builder", e);
        }
    }

    /** The implementor of a scalar function. */
    static CallImplementor scalar(RsqlScalarFunction function) {
        return RexImpTable.createImplementor((translator, call, operands) -> {
            List<RelDataType> types = new ArrayList<>();
            for (RexNode op : call.getOperands()) {
                types.add(op.getType());
            }
            Overload o = function.signatures().resolve(types);
            return invoke(function.getName(), o, translator, call, operands, call.getType());
        }, NullPolicy.NONE, false);
    }

    /**
     * Emits the call into the translator's block and returns the variable holding its result, as the internal value
     * of {@code resultType} (boxed), or null for a void method.
     */
    static ParameterExpression invoke(String name, Overload o, RexToLixTranslator translator, RexCall call,
                                      List<Expression> operands, RelDataType resultType) {
        BlockBuilder block = block(translator);
        Invocation inv = o.invocation();
        List<Class<?>> javaParams = inv.sqlParameterTypes();
        int fixed = inv.isVarArgs() ? javaParams.size() - 1 : javaParams.size();
        List<Expression> args = new ArrayList<>();
        List<Expression> varArgs = new ArrayList<>();
        List<Expression> shown = new ArrayList<>();
        List<Expression> nullChecks = new ArrayList<>();
        Class<?> varArgType = inv.isVarArgs() ? javaParams.get(fixed).getComponentType() : null;
        for (int i = 0; i < operands.size(); i++) {
            Expression v = operands.get(i);
            RelDataType argType = call.getOperands().get(i).getType();
            Class<?> target = i < fixed ? javaParams.get(i) : varArgType;
            boolean mayBeNull = !(v.getType() instanceof Class && ((Class<?>) v.getType()).isPrimitive());
            if (mayBeNull && (o.strict() || target.isPrimitive())) {
                nullChecks.add(Expressions.equal(v, RexImpTable.NULL_EXPR));
            }
            Expression converted = toJava(v, argType, target, inv.external());
            (i < fixed ? args : varArgs).add(converted);
            shown.add(box(isCompiled(target) ? v : converted));
        }
        if (inv.isVarArgs()) {
            args.add(Expressions.newArrayInit(varArgType, varArgs));
        }
        Expression callExpr = inv.call(translator, args);
        Class<?> javaReturn = inv.method().getReturnType();
        ParameterExpression result = null;
        Statement assign;
        if (javaReturn == void.class || resultType == null) {
            assign = Expressions.statement(callExpr);
        } else {
            Class<?> internal = boxed(JAVA_TYPES.getJavaClass(resultType));
            result = Expressions.parameter(internal, block.newName(safeName(name) + "_value"));
            block.add(Expressions.declare(0, result, Expressions.constant(null, internal)));
            assign = Expressions.statement(Expressions.assign(result, toInternal(callExpr, javaReturn, resultType,
                    internal)));
        }
        Statement guarded = tryCatch(name, assign, shown);
        if (nullChecks.isEmpty()) {
            block.add(guarded);
        } else {
            block.add(Expressions.ifThen(Expressions.not(Expressions.foldOr(nullChecks)), guarded));
        }
        return result;
    }

    static Statement tryCatch(String name, Statement body, List<Expression> shownArgs) {
        ParameterExpression vmError = Expressions.parameter(VirtualMachineError.class, "vmError");
        ParameterExpression error = Expressions.parameter(Throwable.class, "error");
        CatchBlock rethrow = Expressions.catch_(vmError, Expressions.throw_(vmError));
        CatchBlock wrap = Expressions.catch_(error, Expressions.throw_(Expressions.new_(FunctionException.class,
                Expressions.constant(name), Expressions.newArrayInit(Object.class, shownArgs), error)));
        return Expressions.tryCatch(body, rethrow, wrap);
    }

    private static String safeName(String name) {
        StringBuilder sb = new StringBuilder();
        for (char c : name.toLowerCase(java.util.Locale.ROOT).toCharArray()) {
            sb.append(Character.isLetterOrDigit(c) && c < 128 ? c : '_');
        }
        return sb.length() == 0 || Character.isDigit(sb.charAt(0)) ? "f" + sb : sb.toString();
    }

    static Class<?> boxed(Type t) {
        if (t instanceof Class && ((Class<?>) t).isPrimitive()) {
            return Primitive.of(t).getBoxClass();
        }
        return t instanceof Class ? (Class<?>) t : Object.class;
    }

    private static Expression box(Expression e) {
        Type t = e.getType();
        return t instanceof Class && ((Class<?>) t).isPrimitive() ? Expressions.box(e) : e;
    }

    /**
     * Parameter types built from a string argument once per constant (regex, date format, zone, JSON path, event
     * pattern, template variables).
     */
    static boolean isCompiled(Class<?> target) {
        return target == Regex.class || target == DateFormat.class || target == ZoneId.class
                || target == JsonPath.class || target == EventPattern.class || target == TemplateVariables.class;
    }

    /** An argument (internal value of {@code sqlType}) as the Java parameter type {@code target}. */
    static Expression toJava(Expression v, RelDataType sqlType, Class<?> target, boolean external) {
        SqlTypeName t = sqlType.getSqlTypeName();
        Class<?> from = boxed(v.getType());
        // Compiled once for a constant: the call on a literal is hoisted into a static field (ClassDeclarationFinder).
        if (target == Regex.class) {
            return Expressions.call(Regex.class, "compile", v);
        }
        if (target == DateFormat.class) {
            return Expressions.call(DateFormat.class, "compile", v);
        }
        if (target == ZoneId.class) {
            return Expressions.call(TimeZones.class, "parse", v);
        }
        if (target == JsonPath.class) {
            return Expressions.call(JsonPath.class, "compile", v);
        }
        if (target == EventPattern.class) {
            return Expressions.call(EventFunctions.class, "pattern", v);
        }
        if (target == TemplateVariables.class) {
            return Expressions.call(EventFunctions.class, "variables", v);
        }
        if (target == Object.class) {
            Expression boxed = box(v);
            if (external && (t == SqlTypeName.TIMESTAMP || t == SqlTypeName.DATE || t == SqlTypeName.TIME
                    || v.getType() == ByteString.class)) {
                return Expressions.call(JavaValues.class, "toExternal", boxed, Expressions.constant(t.name()));
            }
            return boxed;
        }
        if (target == Timestamp.class) {
            return Expressions.call(JavaValues.class, "toTimestamp", EnumUtils.convert(v, Long.class));
        }
        if (target == LocalDateTime.class) {
            return Expressions.call(JavaValues.class, "toLocalDateTime", EnumUtils.convert(v, Long.class));
        }
        if (target == Instant.class) {
            return Expressions.call(JavaValues.class, "toInstant", EnumUtils.convert(v, Long.class));
        }
        if (target == Date.class || target == java.util.Date.class) {
            return Expressions.call(JavaValues.class, "toDate", EnumUtils.convert(v, Integer.class));
        }
        if (target == LocalDate.class) {
            return Expressions.call(JavaValues.class, "toLocalDate", EnumUtils.convert(v, Integer.class));
        }
        if (target == Time.class) {
            return Expressions.call(JavaValues.class, "toTime", EnumUtils.convert(v, Integer.class));
        }
        if (target == LocalTime.class) {
            return Expressions.call(JavaValues.class, "toLocalTime", EnumUtils.convert(v, Integer.class));
        }
        if (target == byte[].class) {
            return from == ByteString.class ? Expressions.call(JavaValues.class, "toBytes", v) : v;
        }
        if (target == char.class) {
            return Expressions.call(JavaValues.class, "toChar", v);
        }
        if (target == Character.class) {
            return Expressions.call(JavaValues.class, "toCharacter", v);
        }
        if (target == BigDecimal.class && from != BigDecimal.class) {
            if (from == Double.class || from == Float.class) {
                return Expressions.call(BigDecimal.class, "valueOf", EnumUtils.convert(v, double.class));
            }
            return Expressions.call(BigDecimal.class, "valueOf", EnumUtils.convert(v, long.class));
        }
        if ((target == Map.class || target == List.class || target == String.class) && from == target) {
            return v;
        }
        if (Primitive.ofBox(target) != null && Primitive.ofBox(from) != null && Primitive.ofBox(target) != Primitive.ofBox(from)) {
            // e.g. an INT argument for a Long parameter: widen in Java, keep null
            Primitive p = Primitive.ofBox(target);
            if (v.getType() instanceof Class && ((Class<?>) v.getType()).isPrimitive()) {
                return Expressions.box(Expressions.convert_(v, p.getPrimitiveClass()), p);
            }
            return Expressions.condition(Expressions.equal(v, RexImpTable.NULL_EXPR),
                    Expressions.constant(null, target),
                    Expressions.box(Expressions.convert_(Expressions.unbox(v), p.getPrimitiveClass()), p));
        }
        return EnumUtils.convert(v, target);
    }

    /** The method's result as the internal value of {@code resultType}, boxed as {@code internal}. */
    static Expression toInternal(Expression call, Class<?> javaReturn, RelDataType resultType, Class<?> internal) {
        Expression v;
        if (javaReturn == Timestamp.class) {
            v = Expressions.call(JavaValues.class, "fromTimestamp", call);
        } else if (javaReturn == LocalDateTime.class) {
            v = Expressions.call(JavaValues.class, "fromLocalDateTime", call);
        } else if (javaReturn == Instant.class) {
            v = Expressions.call(JavaValues.class, "fromInstant", call);
        } else if (javaReturn == Date.class) {
            v = Expressions.call(JavaValues.class, "fromDate", call);
        } else if (javaReturn == LocalDate.class) {
            v = Expressions.call(JavaValues.class, "fromLocalDate", call);
        } else if (javaReturn == Time.class) {
            v = Expressions.call(JavaValues.class, "fromTime", call);
        } else if (javaReturn == LocalTime.class) {
            v = Expressions.call(JavaValues.class, "fromLocalTime", call);
        } else if (javaReturn == byte[].class) {
            v = Expressions.call(JavaValues.class, "fromBytes", call);
        } else if (javaReturn == Character.class || javaReturn == char.class) {
            v = Expressions.call(JavaValues.class, "fromCharacter", box(call));
        } else {
            v = call;
        }
        Class<?> vType = boxed(v.getType());
        if (vType == internal) {
            return box(v);
        }
        if (Primitive.ofBox(vType) != null && Primitive.ofBox(internal) != null) {
            Primitive p = Primitive.ofBox(internal);
            if (v.getType() instanceof Class && ((Class<?>) v.getType()).isPrimitive()) {
                return Expressions.box(Expressions.convert_(v, p.getPrimitiveClass()), p);
            }
        }
        // Declared type differs from the Java type (Object results, getResultType): convert by SQL type.
        return Expressions.convert_(Expressions.call(JavaValues.class, "toInternal", box(v),
                Expressions.constant(resultType.getSqlTypeName().name())), internal);
    }
}
