package dev.rsql.runtime.exec;

import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.spi.ExtClassLoader;

/**
 * What a task's thread is doing, read from a stack (a sampled thread's, or a thrown error's): the function it is in,
 * and whether that function is exiting the JVM. Only read when something already went wrong, never per record.
 */
final class CallStack {

    private static final String GENERATED_PREFIX = CalcFunction.GENERATED_PACKAGE + ".";

    private CallStack() {
    }

    /**
     * The function the stack is in, as {@code class.method}, or null when it shows none: the outermost frame of a
     * class from a jar in {@code ext/} (the function's entry point: {@code eval}, {@code accumulate}, {@code open}),
     * else whatever the innermost generated expression code called (a function on the class path or a built-in).
     */
    static String function(StackTraceElement[] stack) {
        for (int i = stack.length - 1; i >= 0; i--) {
            String loader = stack[i].getClassLoaderName();
            if (loader != null && loader.startsWith(ExtClassLoader.JAR_LOADER_PREFIX)) {
                return name(stack[i]) + " (" + loader.substring(ExtClassLoader.JAR_LOADER_PREFIX.length()) + ")";
            }
        }
        for (int i = 1; i < stack.length; i++) {
            if (stack[i].getClassName().startsWith(GENERATED_PREFIX)
                    && !stack[i - 1].getClassName().startsWith(GENERATED_PREFIX)) {
                return name(stack[i - 1]);
            }
        }
        return null;
    }

    /** True when the stack is inside {@code System.exit} / {@code Runtime.exit}: waiting for the shutdown hooks. */
    static boolean inSystemExit(StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            if (e.getClassName().equals("java.lang.Shutdown")
                    || e.getClassName().equals("java.lang.Runtime") && e.getMethodName().equals("exit")) {
                return true;
            }
        }
        return false;
    }

    private static String name(StackTraceElement e) {
        return e.getClassName() + "." + e.getMethodName();
    }
}
