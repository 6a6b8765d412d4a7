package dev.rsql.planner.functions.udf;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * User function instances an application registered as Java objects (not as a class name): generated code and the
 * aggregation operators get theirs by key. As in Flink, each task gets its own copy of a {@link Serializable} function
 * (a Flink/Blink function always is), so that {@code open}/{@code close} and fields are per task; an object that is
 * not serializable is shared by every task, and must then be thread-safe.
 */
public final class FunctionObjects {

    private static final Map<String, Registered> OBJECTS = new ConcurrentHashMap<>();
    /** Keys by object identity: planning a script again with the same object reuses its key. */
    private static final Map<Object, String> KEYS = new IdentityHashMap<>();
    private static final AtomicLong NEXT = new AtomicLong();

    private FunctionObjects() {
    }

    private record Registered(Object function, byte[] serialized) {
    }

    /**
     * Registers a function object (again: the same key); its key is what generated code names it by. The object is
     * serialized when first registered, so that a change the application makes to it later does not reach the tasks.
     */
    public static synchronized String register(String name, Object function) {
        String known = KEYS.get(function);
        if (known != null) {
            return known;
        }
        byte[] bytes = null;
        if (function instanceof Serializable) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ObjectOutputStream o = new ObjectOutputStream(out)) {
                o.writeObject(function);
            } catch (IOException e) {
                throw new IllegalArgumentException("function " + name + ": " + function.getClass().getName()
                        + " is Serializable but cannot be serialized (each task gets a copy): " + e, e);
            }
            bytes = out.toByteArray();
        }
        String key = name + "#" + NEXT.incrementAndGet();
        OBJECTS.put(key, new Registered(function, bytes));
        KEYS.put(function, key);
        return key;
    }

    /** Forgets a function object (its engine closed); jobs planned with it must have ended. */
    public static synchronized void release(String key) {
        Registered r = OBJECTS.remove(key);
        if (r != null) {
            KEYS.remove(r.function);
        }
    }

    /** The instance for one task (or one planning probe): a copy, or the shared object. */
    public static Object instance(String key) {
        Registered r = OBJECTS.get(key);
        if (r == null) {
            throw new IllegalStateException("function object " + key + " is no longer registered (its engine closed)");
        }
        if (r.serialized == null) {
            return r.function;
        }
        ClassLoader loader = r.function.getClass().getClassLoader();
        try (ObjectInputStream in = new LoaderObjectInput(new ByteArrayInputStream(r.serialized), loader)) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("function object " + key + " cannot be copied for a task: " + e, e);
        }
    }

    /** Resolves the function's classes with its own loader (an application's, not the engine's). */
    private static final class LoaderObjectInput extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderObjectInput(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
