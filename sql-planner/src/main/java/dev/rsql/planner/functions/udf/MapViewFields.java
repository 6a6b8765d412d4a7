package dev.rsql.planner.functions.udf;

import dev.rsql.runtime.aggregate.ViewField;
import dev.rsql.runtime.types.DataType;
import org.apache.flink.table.api.dataview.MapView;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@link MapView} fields of a UDAF's accumulator class. Each is a view field of the aggregation's accumulator row
 * (after the serialized accumulator): where the operator keeps views in state, the row's field holds the group's
 * state-backed map, which {@link #attach} plugs into the accumulator's MapView, and the accumulator is stored without
 * the map's entries ({@link #withoutViews}). Elsewhere the fields stay NULL and the MapView is stored with the
 * accumulator. Keys and values are stored with the accumulator's codecs of the declared key and value types.
 */
final class MapViewFields {

    private static final DataType VIEW = DataType.map(DataType.of(DataType.Kind.VARBINARY),
            DataType.of(DataType.Kind.VARBINARY));

    private final Field[] fields;
    private final List<ViewField> views;

    private MapViewFields(Field[] fields, List<ViewField> views) {
        this.fields = fields;
        this.views = views;
    }

    static MapViewFields of(String function, Class<?> accumulator) {
        List<Field> found = new ArrayList<>();
        List<ViewField> views = new ArrayList<>();
        for (Class<?> c = accumulator; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || !MapView.class.isAssignableFrom(f.getType())) {
                    continue;
                }
                f.setAccessible(true);
                Type t = f.getGenericType();
                Type k = t instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
                Type v = t instanceof ParameterizedType p ? p.getActualTypeArguments()[1] : Object.class;
                String where = function + " (MapView field " + f.getName() + ")";
                views.add(new ViewField(1 + found.size(), AccumulatorSerializer.of(where, k),
                        AccumulatorSerializer.of(where, v)));
                found.add(f);
            }
        }
        return new MapViewFields(found.toArray(new Field[0]), List.copyOf(views));
    }

    /** The view fields, at 1, 2, ... relative to the function's accumulator. */
    List<ViewField> views() {
        return views;
    }

    /** Types of the view fields in the accumulator row. */
    List<DataType> types() {
        List<DataType> out = new ArrayList<>();
        for (int i = 0; i < fields.length; i++) {
            out.add(VIEW);
        }
        return out;
    }

    /** True when the row's view fields hold state-backed maps. */
    boolean bound(Object[] row, int offset) {
        return fields.length > 0 && row[offset + 1] != null;
    }

    /** Backs the accumulator's MapViews by the maps in {@code row[offset + 1 ...]}. */
    @SuppressWarnings("unchecked")
    void attach(Object accumulator, Object[] row, int offset) {
        for (int i = 0; i < fields.length; i++) {
            MapView<Object, Object> view = (MapView<Object, Object>) get(fields[i], accumulator);
            if (view == null) {
                view = new MapView<>();
                set(fields[i], accumulator, view);
            }
            view.setMap((Map<Object, Object>) row[offset + 1 + i]);
        }
    }

    /** The result of {@code store} with the accumulator's MapViews empty for the call, then backed as before. */
    @SuppressWarnings("unchecked")
    byte[] withoutViews(Object accumulator, Function<Object, byte[]> store) {
        List<Map<Object, Object>> maps = new ArrayList<>(fields.length);
        for (Field f : fields) {
            MapView<Object, Object> view = (MapView<Object, Object>) get(f, accumulator);
            maps.add(view == null ? null : view.getMap());
            if (view != null) {
                view.setMap(new HashMap<>());
            }
        }
        try {
            return store.apply(accumulator);
        } finally {
            for (int i = 0; i < fields.length; i++) {
                if (maps.get(i) != null) {
                    ((MapView<Object, Object>) get(fields[i], accumulator)).setMap(maps.get(i));
                }
            }
        }
    }

    private static Object get(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + f, e);
        }
    }

    private static void set(Field f, Object o, Object v) {
        try {
            f.set(o, v);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot write " + f, e);
        }
    }
}
