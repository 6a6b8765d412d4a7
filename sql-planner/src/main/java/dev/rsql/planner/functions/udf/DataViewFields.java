package dev.rsql.planner.functions.udf;

import dev.rsql.runtime.aggregate.ViewField;
import dev.rsql.runtime.state.FieldSerializer;
import dev.rsql.runtime.types.DataType;
import org.apache.flink.table.api.dataview.ListView;
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
 * The {@link MapView} and {@link ListView} fields of a UDAF's accumulator class. Each is a view field of the
 * aggregation's accumulator row (after the serialized accumulator); a ListView also has a field counting its
 * arrivals, after all view fields. Where the operator keeps views in state, the row's view field holds the group's
 * state-backed map, which {@link #attach} plugs into the accumulator's view (a ListView as a {@link StateListView} over
 * it), and the accumulator is stored without the views' elements ({@link #withoutViews}). Elsewhere the fields stay
 * NULL and the views are stored with the accumulator. Keys and elements are stored with the accumulator's codecs of
 * the declared types.
 */
final class DataViewFields {

    private static final DataType VIEW = DataType.map(DataType.of(DataType.Kind.VARBINARY),
            DataType.of(DataType.Kind.VARBINARY));
    private static final DataType ARRIVALS = DataType.of(DataType.Kind.BIGINT);

    private final Field[] fields;
    /** Per field: the index of its arrival counter among the counters, or -1 for a MapView. */
    private final int[] counters;
    private final List<ViewField> views;

    private DataViewFields(Field[] fields, int[] counters, List<ViewField> views) {
        this.fields = fields;
        this.counters = counters;
        this.views = views;
    }

    static DataViewFields of(String function, Class<?> accumulator) {
        List<Field> found = new ArrayList<>();
        List<Integer> counters = new ArrayList<>();
        List<ViewField> views = new ArrayList<>();
        int lists = 0;
        for (Class<?> c = accumulator; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                int mod = f.getModifiers();
                boolean map = MapView.class.isAssignableFrom(f.getType());
                boolean list = ListView.class.isAssignableFrom(f.getType());
                if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || !map && !list) {
                    continue;
                }
                f.setAccessible(true);
                String where = function + " (" + f.getType().getSimpleName() + " field " + f.getName() + ")";
                int field = 1 + found.size();
                if (map) {
                    views.add(new ViewField(field, AccumulatorSerializer.of(where, typeArgument(f, 0)),
                            AccumulatorSerializer.of(where, typeArgument(f, 1))));
                    counters.add(-1);
                } else {
                    views.add(new ViewField(field, FieldSerializer.forKeys(ARRIVALS.notNull()),
                            AccumulatorSerializer.of(where, typeArgument(f, 0))));
                    counters.add(lists++);
                }
                found.add(f);
            }
        }
        return new DataViewFields(found.toArray(new Field[0]), counters.stream().mapToInt(Integer::intValue).toArray(),
                List.copyOf(views));
    }

    private static Type typeArgument(Field f, int index) {
        Type t = f.getGenericType();
        return t instanceof ParameterizedType p ? p.getActualTypeArguments()[index] : Object.class;
    }

    /** The view fields, at 1, 2, ... relative to the function's accumulator. */
    List<ViewField> views() {
        return views;
    }

    /** Types of the view fields, then of the ListViews' arrival counters, in the accumulator row. */
    List<DataType> types() {
        List<DataType> out = new ArrayList<>();
        for (int i = 0; i < fields.length; i++) {
            out.add(VIEW);
        }
        for (int c : counters) {
            if (c >= 0) {
                out.add(ARRIVALS);
            }
        }
        return out;
    }

    /** True when the row's view fields hold state-backed maps. */
    boolean bound(Object[] row, int offset) {
        return fields.length > 0 && row[offset + 1] != null;
    }

    /** Backs the accumulator's views by the maps in {@code row[offset + 1 ...]}. */
    @SuppressWarnings("unchecked")
    void attach(Object accumulator, Object[] row, int offset) {
        for (int i = 0; i < fields.length; i++) {
            Map<Object, Object> map = (Map<Object, Object>) row[offset + 1 + i];
            Object view = get(fields[i], accumulator);
            if (counters[i] < 0) {
                if (view == null) {
                    view = new MapView<>();
                    set(fields[i], accumulator, view);
                }
                ((MapView<Object, Object>) view).setMap(map);
            } else {
                if (view == null) {
                    view = new ListView<>();
                    set(fields[i], accumulator, view);
                }
                ((ListView<Object>) view).setList(new StateListView(map, row, offset + 1 + fields.length
                        + counters[i]));
            }
        }
    }

    /** The result of {@code store} with the accumulator's views empty for the call, then backed as before. */
    @SuppressWarnings("unchecked")
    byte[] withoutViews(Object accumulator, Function<Object, byte[]> store) {
        Object[] backing = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            Object view = get(fields[i], accumulator);
            if (view instanceof MapView<?, ?> m) {
                backing[i] = m.getMap();
                ((MapView<Object, Object>) m).setMap(new HashMap<>());
            } else if (view instanceof ListView<?> l) {
                backing[i] = l.getList();
                ((ListView<Object>) l).setList(new ArrayList<>());
            }
        }
        try {
            return store.apply(accumulator);
        } finally {
            for (int i = 0; i < fields.length; i++) {
                Object view = get(fields[i], accumulator);
                if (view instanceof MapView<?, ?> m && backing[i] != null) {
                    ((MapView<Object, Object>) m).setMap((Map<Object, Object>) backing[i]);
                } else if (view instanceof ListView<?> l && backing[i] != null) {
                    ((ListView<Object>) l).setList((List<Object>) backing[i]);
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
