package org.apache.flink.table.api.dataview;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A list in an accumulator (a field of type {@code ListView<T>}, its element type declared). In a GROUP BY the engine
 * backs it by keyed state, one entry per element, so {@code add} costs the same whatever the list holds; elsewhere
 * it is a plain list stored with the accumulator.
 *
 * @param <T> the element type
 */
public class ListView<T> implements DataView {

    private static final long serialVersionUID = 1L;

    private List<T> list = new ArrayList<>();

    public List<T> getList() {
        return list;
    }

    public void setList(List<T> list) {
        this.list = Objects.requireNonNull(list);
    }

    /** The elements in the order they were added. */
    public Iterable<T> get() throws Exception {
        return list;
    }

    public void add(T value) throws Exception {
        list.add(value);
    }

    public void addAll(List<T> values) throws Exception {
        list.addAll(values);
    }

    /** Removes the first occurrence; false when there is none. */
    public boolean remove(T value) throws Exception {
        return list.remove(value);
    }

    @Override
    public void clear() {
        list.clear();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ListView && list.equals(((ListView<?>) o).list);
    }

    @Override
    public int hashCode() {
        return list.hashCode();
    }
}
