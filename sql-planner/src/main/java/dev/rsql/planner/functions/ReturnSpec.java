package dev.rsql.planner.functions;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlOperatorBinding;

import java.util.ArrayList;
import java.util.List;

/** The result type of one overload, given the call's argument types. */
@FunctionalInterface
public interface ReturnSpec {

    /**
     * @param binding the call being validated or translated; may be used for literal arguments
     */
    RelDataType infer(RelDataTypeFactory typeFactory, List<RelDataType> argTypes, SqlOperatorBinding binding);

    /** A fixed type, nullable. */
    static ReturnSpec of(ParamType type) {
        return (f, args, b) -> type.type(f);
    }

    /** A fixed type, NOT NULL (functions that never return NULL, e.g. UUID()). */
    static ReturnSpec notNull(ParamType type) {
        return (f, args, b) -> f.createTypeWithNullability(type.type(f), false);
    }

    /** The least restrictive type of some arguments (0-based), nullable. */
    static ReturnSpec leastRestrictive(int... args) {
        return (f, types, b) -> {
            List<RelDataType> ts = new ArrayList<>();
            for (int i : args) {
                if (i < types.size()) {
                    ts.add(types.get(i));
                }
            }
            RelDataType t = f.leastRestrictive(ts);
            return f.createTypeWithNullability(t == null ? ts.get(0) : t, true);
        };
    }
}
