package dev.rsql.planner.functions;

import dev.rsql.planner.functions.udf.FlinkFunctionContext;
import dev.rsql.runtime.graph.FunctionContext;
import org.apache.flink.table.functions.TableFunction;
import org.apache.flink.table.functions.UserDefinedFunction;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Opens and closes user function instances held by generated code: a Flink/Blink function gets
 * {@code open(FunctionContext)} with the job's parameters; a bean its optional public {@code open()} / {@code close()}.
 * Called once per task, so reflection is fine here. Methods throw only unchecked exceptions (generated methods
 * declare none).
 */
public final class UdfLifecycle {

    private UdfLifecycle() {
    }

    public static void open(Object udf, FunctionContext context, String name) {
        try {
            if (udf instanceof UserDefinedFunction) {
                ((UserDefinedFunction) udf).open(new FlinkFunctionContext(context));
            } else {
                Method open = noArg(udf.getClass(), "open");
                if (open != null) {
                    open.invoke(udf);
                }
            }
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("function " + name + ": open() failed: " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException("function " + name + ": open() failed: " + e, e);
        }
    }

    /** Wires a Flink table function's {@code collect} to the generated invoker's collector. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void setCollector(Object udf, ForwardingCollector collector) {
        if (udf instanceof TableFunction) {
            ((TableFunction) udf).setCollector(collector);
        }
    }

    public static void close(Object udf, String name) {
        try {
            if (udf instanceof UserDefinedFunction) {
                ((UserDefinedFunction) udf).close();
                return;
            }
            Method close = noArg(udf.getClass(), "close");
            if (close != null) {
                close.invoke(udf);
            }
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("function " + name + ": close() failed: " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException("function " + name + ": close() failed: " + e, e);
        }
    }

    private static Method noArg(Class<?> c, String name) {
        try {
            Method m = c.getMethod(name);
            return Modifier.isStatic(m.getModifiers()) ? null : m;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
