package dev.rsql.planner.functions;

import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

/**
 * One signature of a function: its SQL parameter types (the last one repeated when {@code varargs}), its result, the
 * Java method behind it, and whether a NULL argument gives NULL without calling the method ({@code strict}).
 */
public record Overload(List<ParamType> params, boolean varargs, ReturnSpec result, Invocation invocation,
                       boolean strict, String signature) {

    public Overload {
        params = List.copyOf(params);
        if (varargs && params.isEmpty()) {
            throw new IllegalArgumentException("a varargs signature needs a parameter");
        }
    }

    public boolean accepts(int argCount) {
        return varargs ? argCount >= params.size() - 1 : argCount == params.size();
    }

    /** The parameter type of argument {@code i}. */
    public ParamType param(int i) {
        return varargs && i >= params.size() - 1 ? params.get(params.size() - 1) : params.get(i);
    }

    /** Total cost of the arguments (see {@link ParamType#cost}), or -1 when they do not fit. */
    public int cost(List<RelDataType> argTypes) {
        if (!accepts(argTypes.size())) {
            return -1;
        }
        int total = varargs ? 1 : 0;
        for (int i = 0; i < argTypes.size(); i++) {
            int c = param(i).cost(argTypes.get(i));
            if (c < 0) {
                return -1;
            }
            total += c;
        }
        return total;
    }

    /** Picks the overload with the lowest cost (the first declared on ties), or null. */
    public static Overload resolve(List<Overload> overloads, List<RelDataType> argTypes) {
        Overload best = null;
        int bestCost = Integer.MAX_VALUE;
        for (Overload o : overloads) {
            int c = o.cost(argTypes);
            if (c >= 0 && c < bestCost) {
                best = o;
                bestCost = c;
            }
        }
        return best;
    }
}
