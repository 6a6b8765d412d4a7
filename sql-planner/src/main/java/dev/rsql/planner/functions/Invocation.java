package dev.rsql.planner.functions;

import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * How generated code calls the Java method behind an overload: a static method (built-ins, a user class's static
 * method) or a method of the function's instance, a field of the generated class.
 */
public final class Invocation {

    private final Method method;
    private final String field;          // instance methods: the generated field holding the instance
    private final boolean zoneParameter; // static built-ins: first Java parameter is the job's time zone
    private final boolean external;      // user functions: arguments as java.sql.Timestamp etc., not internal values
    private final boolean consumerParameter; // built-in table functions: first Java parameter receives the rows

    private Invocation(Method method, String field, boolean zoneParameter, boolean external) {
        this.method = method;
        this.field = field;
        this.zoneParameter = zoneParameter;
        this.external = external;
        Class<?>[] p = method.getParameterTypes();
        this.consumerParameter = p.length > 0 && p[0] == Consumer.class;
    }

    /**
     * A public static method. A leading {@link ZoneId} parameter receives the job's time zone; a leading
     * {@link Consumer} parameter (table functions) receives the rows.
     */
    public static Invocation ofStatic(Method method, boolean external) {
        if (!Modifier.isStatic(method.getModifiers())) {
            throw new IllegalArgumentException(method + " is not static");
        }
        Class<?>[] p = method.getParameterTypes();
        return new Invocation(method, null, p.length > 0 && p[0] == ZoneId.class, external);
    }

    /** A public instance method called on the function instance held in {@code field}. */
    public static Invocation ofInstance(Method method, String field) {
        return new Invocation(method, field, false, true);
    }

    /** True when the first Java parameter is the consumer of a table function's rows. */
    public boolean consumerParameter() {
        return consumerParameter;
    }

    public Method method() {
        return method;
    }

    /** The field holding the instance, or null for a static method. */
    public String field() {
        return field;
    }

    /** True when arguments and results are converted to and from Java classes (java.sql.Timestamp...). */
    public boolean external() {
        return external;
    }

    /** Java parameter types the SQL arguments map to (without the time zone parameter). */
    public List<Class<?>> sqlParameterTypes() {
        List<Class<?>> p = new ArrayList<>(Arrays.asList(method.getParameterTypes()));
        if (zoneParameter || consumerParameter) {
            p.remove(0);
        }
        return p;
    }

    public boolean isVarArgs() {
        return method.isVarArgs();
    }

    /** The call, given the converted SQL arguments (varargs already packed into an array). */
    Expression call(RexToLixTranslator translator, List<Expression> args) {
        return call(translator, null, args);
    }

    /** The call; {@code out} is the row consumer for a method with a consumer parameter. */
    Expression call(RexToLixTranslator translator, Expression out, List<Expression> args) {
        List<Expression> all = new ArrayList<>();
        if (zoneParameter) {
            all.add(Expressions.call(TimeZones.class, "of", translator.getRoot()));
        }
        if (consumerParameter) {
            all.add(out);
        }
        all.addAll(args);
        if (field == null) {
            return Expressions.call(method, all);
        }
        return Expressions.call(Expressions.parameter(method.getDeclaringClass(), field), method, all);
    }

    @Override
    public String toString() {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }
}
