package dev.rsql.planner.functions.udf;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The list behind a UDAF's {@code ListView} where the aggregation keeps it in state: each element is an entry of a
 * state-backed map under its arrival number, taken from a counter field of the accumulator row, so {@code add} writes
 * one entry whatever the list holds. Reading ({@code get}, iteration, {@code remove(Object)}) reads the entries in
 * arrival order once per call.
 */
final class StateListView extends AbstractList<Object> {

    private final Map<Object, Object> elements;
    private final Object[] row;
    private final int counter;

    StateListView(Map<Object, Object> elements, Object[] row, int counter) {
        this.elements = elements;
        this.row = row;
        this.counter = counter;
    }

    @Override
    public boolean add(Object element) {
        long arrival = row[counter] == null ? 0 : (Long) row[counter];
        row[counter] = arrival + 1;
        elements.put(arrival, element);
        return true;
    }

    /** The entries in arrival order. */
    private List<Map.Entry<Object, Object>> entries() {
        List<Map.Entry<Object, Object>> out = new ArrayList<>(elements.entrySet());
        out.sort((a, b) -> Long.compare((Long) a.getKey(), (Long) b.getKey()));
        return out;
    }

    @Override
    public Object get(int index) {
        return entries().get(index).getValue();
    }

    @Override
    public int size() {
        return elements.size();
    }

    @Override
    public boolean isEmpty() {
        return elements.isEmpty();
    }

    @Override
    public Iterator<Object> iterator() {
        Iterator<Map.Entry<Object, Object>> read = entries().iterator();
        return new Iterator<>() {
            private Map.Entry<Object, Object> last;

            @Override
            public boolean hasNext() {
                return read.hasNext();
            }

            @Override
            public Object next() {
                last = read.next();
                return last.getValue();
            }

            @Override
            public void remove() {
                elements.remove(last.getKey());
            }
        };
    }

    @Override
    public boolean remove(Object element) {
        for (Map.Entry<Object, Object> e : entries()) {
            if (element == null ? e.getValue() == null : element.equals(e.getValue())) {
                elements.remove(e.getKey());
                return true;
            }
        }
        return false;
    }

    @Override
    public void clear() {
        elements.clear();
    }
}
