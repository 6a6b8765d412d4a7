package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.graph.FunctionContext;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * AGG(DISTINCT x ...): counts each distinct argument value (a MAP in the accumulator) and lets the wrapped aggregate
 * see a value only when it first appears — and, over a changelog, take it back when its last copy goes. The map is a
 * view field: in a group aggregation each distinct value is a state entry holding its count.
 */
public final class DistinctFunction implements AggregateFunction {

    private final AggregateFunction inner;
    private final int[] args;
    private final List<DataType> accTypes;

    public DistinctFunction(AggregateFunction inner, int[] args, List<DataType> argTypes) {
        this.inner = inner;
        this.args = args.clone();
        DataType keyType = argTypes.size() == 1 ? argTypes.get(0).nullable() : DataType.array(DataType.string());
        List<DataType> types = new ArrayList<>();
        types.add(DataType.map(keyType, DataType.of(DataType.Kind.BIGINT).notNull()));
        types.addAll(inner.accumulatorTypes());
        this.accTypes = List.copyOf(types);
    }

    private Object key(Object[] input) {
        if (args.length == 1) {
            return input[args[0]];
        }
        List<Object> k = new ArrayList<>(args.length);
        for (int a : args) {
            k.add(input[a] == null ? null : String.valueOf(input[a]));
        }
        return k;
    }

    private boolean anyNull(Object[] input) {
        for (int a : args) {
            if (input[a] == null) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<DataType> accumulatorTypes() {
        return accTypes;
    }

    /** The map of distinct values may be kept as one state entry per value. */
    @Override
    public List<ViewField> viewFields() {
        return List.of(ViewField.ofMap(0, accTypes.get(0)));
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        acc[offset] = new HashMap<>();
        inner.createAccumulator(acc, offset + 1);
    }

    @SuppressWarnings("unchecked")
    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        if (anyNull(input)) {
            return;
        }
        if (((Map<Object, Long>) acc[offset]).merge(key(input), 1L, Long::sum) == 1L) {
            inner.accumulate(acc, offset + 1, input);
        }
    }

    @SuppressWarnings("unchecked")
    @Override
    public void retract(Object[] acc, int offset, Object[] input) {
        if (anyNull(input)) {
            return;
        }
        Map<Object, Long> seen = (Map<Object, Long>) acc[offset];
        Object k = key(input);
        Long n = seen.get(k);
        if (n == null) {
            return;
        }
        if (n == 1) {
            seen.remove(k);
            inner.retract(acc, offset + 1, input);
        } else {
            seen.put(k, n - 1);
        }
    }

    @Override
    public boolean canRetract() {
        return inner.canRetract();
    }

    @Override
    public boolean canMerge() {
        return args.length == 1 && inner.canMerge();
    }

    @SuppressWarnings("unchecked")
    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        if (args.length != 1) {
            throw new UnsupportedOperationException(name() + " with several arguments cannot merge windows");
        }
        // The inner aggregate must see each value once: feed it the other side's values this side has not seen.
        Map<Object, Long> mine = (Map<Object, Long>) acc[offset];
        Object[] probe = new Object[args[0] + 1];
        for (Map.Entry<Object, Long> e : ((Map<Object, Long>) other[otherOffset]).entrySet()) {
            if (mine.merge(e.getKey(), e.getValue(), Long::sum).equals(e.getValue())) {
                probe[args[0]] = e.getKey();
                inner.accumulate(acc, offset + 1, probe);
            }
        }
    }

    @Override
    public Object getValue(Object[] acc, int offset) {
        return inner.getValue(acc, offset + 1);
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        inner.open(context);
    }

    @Override
    public void close() throws Exception {
        inner.close();
    }

    @Override
    public String name() {
        return inner.name().replaceFirst("\\(", "(DISTINCT ");
    }
}
