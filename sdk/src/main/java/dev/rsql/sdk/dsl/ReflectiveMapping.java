package dev.rsql.sdk.dsl;

import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * A record's components, or a POJO's non-static, non-transient fields (in declaration order, superclasses first), one
 * column each; a field whose type is itself a record or POJO is one ROW column.
 */
final class ReflectiveMapping<T> implements RowMapping<T> {

    private final Class<T> type;
    private final RowType rowType;
    private final FieldType[] fields;
    private final MethodHandle[] getters;
    /**
     * The canonical constructor of a record, taking its components as one {@code Object[]} (spread once here, not at
     * every row), or the no-argument constructor of a POJO.
     */
    private final MethodHandle constructor;
    /** A POJO's field setters; null for a record. */
    private final MethodHandle[] setters;

    private ReflectiveMapping(Class<T> type, List<String> names, List<Class<?>> types, MethodHandle[] getters,
                              MethodHandle constructor, MethodHandle[] setters) {
        this.type = type;
        this.fields = new FieldType[names.size()];
        RowType.Builder b = RowType.builder();
        for (int i = 0; i < fields.length; i++) {
            fields[i] = fieldType(types.get(i));
            b.field(names.get(i), fields[i].dataType());
        }
        this.rowType = b.build();
        this.getters = getters;
        this.constructor = setters == null ? constructor.asSpreader(Object[].class, fields.length) : constructor;
        this.setters = setters;
    }

    static <T> ReflectiveMapping<T> of(Class<T> type) {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        List<String> names = new ArrayList<>();
        List<Class<?>> types = new ArrayList<>();
        try {
            if (type.isRecord()) {
                RecordComponent[] components = type.getRecordComponents();
                MethodHandle[] getters = new MethodHandle[components.length];
                Class<?>[] params = new Class<?>[components.length];
                for (int i = 0; i < components.length; i++) {
                    names.add(components[i].getName());
                    types.add(components[i].getType());
                    params[i] = components[i].getType();
                    components[i].getAccessor().setAccessible(true);
                    getters[i] = lookup.unreflect(components[i].getAccessor());
                }
                Constructor<T> c = type.getDeclaredConstructor(params);
                c.setAccessible(true);
                return new ReflectiveMapping<>(type, names, types, getters, lookup.unreflectConstructor(c), null);
            }
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                List<Field> own = new ArrayList<>();
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !Modifier.isTransient(f.getModifiers())
                            && !f.isSynthetic()) {
                        own.add(f);
                    }
                }
                fields.addAll(0, own);
            }
            if (fields.isEmpty()) {
                throw new IllegalArgumentException(type.getName() + " has no fields to map to columns");
            }
            MethodHandle[] getters = new MethodHandle[fields.size()];
            MethodHandle[] setters = new MethodHandle[fields.size()];
            for (int i = 0; i < fields.size(); i++) {
                Field f = fields.get(i);
                f.setAccessible(true);
                names.add(f.getName());
                types.add(f.getType());
                getters[i] = lookup.unreflectGetter(f);
                setters[i] = lookup.unreflectSetter(f);
            }
            Constructor<T> c = type.getDeclaredConstructor();
            c.setAccessible(true);
            return new ReflectiveMapping<>(type, names, types, getters, lookup.unreflectConstructor(c), setters);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type.getName() + " cannot be mapped to a row: a record, or a class with "
                    + "a no-argument constructor, is needed", e);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalArgumentException(type.getName() + " cannot be mapped to a row: " + e.getMessage(), e);
        }
    }

    /** A field's type: a column of its own, or a ROW column of a nested record or POJO. */
    static FieldType fieldType(Class<?> type) {
        FieldType atomic = FieldType.of(type);
        if (atomic != null) {
            return atomic;
        }
        RowMapping<Object> nested = RowMapping.of(castClass(type));
        RowType t = nested.rowType();
        return new FieldType(type, DataType.row(t.names(), t.types()), v -> v == null ? null : nested.toRow(v),
                v -> v == null ? null : nested.read((Object[]) v, 0));
    }

    @SuppressWarnings("unchecked")
    private static Class<Object> castClass(Class<?> type) {
        return (Class<Object>) type;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public void write(T value, Object[] row, int offset) {
        try {
            for (int i = 0; i < fields.length; i++) {
                row[offset + i] = value == null ? null : fields[i].toInternal().apply(getters[i].invoke(value));
            }
        } catch (Throwable e) {
            throw new IllegalStateException("cannot read the fields of " + value, e);
        }
    }

    @SuppressWarnings("unchecked")
    @Override
    public T read(Object[] row, int offset) {
        try {
            if (setters == null) {
                Object[] args = new Object[fields.length];
                for (int i = 0; i < args.length; i++) {
                    args[i] = fields[i].fromInternal().apply(row[offset + i]);
                }
                return (T) constructor.invoke(args);
            }
            T value = (T) constructor.invoke();
            for (int i = 0; i < fields.length; i++) {
                Object v = fields[i].fromInternal().apply(row[offset + i]);
                if (v != null || !fields[i].javaType().isPrimitive()) {
                    setters[i].invoke(value, v);
                }
            }
            return value;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot make a " + type.getName() + " of a row", e);
        }
    }

    @Override
    public String toString() {
        return type.getSimpleName();
    }
}
