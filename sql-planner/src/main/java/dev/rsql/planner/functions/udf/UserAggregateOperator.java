package dev.rsql.planner.functions.udf;

import dev.rsql.planner.functions.Signatures;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.AggregateFunction;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

import java.util.List;

/**
 * The SQL aggregate operator of a user aggregate function: validates calls against its {@code accumulate} overloads
 * and types them with its result type. The aggregation translation finds the function in {@link #function()}.
 */
public final class UserAggregateOperator extends SqlUserDefinedAggFunction {

    private final UserAggregateFunction function;

    UserAggregateOperator(UserAggregateFunction function) {
        this(function, new Signatures(function.name(), function.overloads()));
    }

    private UserAggregateOperator(UserAggregateFunction function, Signatures signatures) {
        super(new SqlIdentifier(function.name(), SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                b -> function.resultType(), signatures, signatures, new CalciteAggregate(function), false,
                function.requiresOver(), Optionality.FORBIDDEN);
        this.function = function;
    }

    public UserAggregateFunction function() {
        return function;
    }

    @Override
    public boolean isDeterministic() {
        return function.isDeterministic();
    }

    /** Calcite's schema view of the function; the engine never executes aggregates through it. */
    private static final class CalciteAggregate implements AggregateFunction {
        private final UserAggregateFunction function;

        CalciteAggregate(UserAggregateFunction function) {
            this.function = function;
        }

        @Override
        public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
            return function.resultType();
        }

        @Override
        public List<FunctionParameter> getParameters() {
            return List.of();
        }
    }
}
