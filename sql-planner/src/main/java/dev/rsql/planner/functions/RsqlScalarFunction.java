package dev.rsql.planner.functions;

import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.util.List;

/**
 * A scalar function backed by Java methods: a built-in of the dialect or a user function. Generated code calls the
 * chosen overload's method directly ({@link CallCodegen}); a user function's instance is a field of the generated
 * class ({@link #instance()}).
 */
public final class RsqlScalarFunction extends SqlUserDefinedFunction {

    private final Signatures signatures;
    private final boolean deterministic;
    private final boolean dynamic;
    private final UdfInstance instance;

    private RsqlScalarFunction(String name, Signatures signatures, Implementation impl, boolean deterministic,
                               boolean dynamic, UdfInstance instance) {
        super(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, signatures::returnType, signatures,
                signatures, impl);
        this.signatures = signatures;
        this.deterministic = deterministic;
        this.dynamic = dynamic;
        this.instance = instance;
        impl.function = this;
    }

    /**
     * @param deterministic false for functions whose result changes between calls with equal arguments
     * @param dynamic true for functions of the current time (never evaluated once at planning time)
     * @param instance the user function instance the overloads' instance methods are called on, or null
     */
    public static RsqlScalarFunction create(String name, List<Overload> overloads, boolean deterministic,
                                            boolean dynamic, UdfInstance instance) {
        return new RsqlScalarFunction(name, new Signatures(name, overloads), new Implementation(), deterministic,
                dynamic, instance);
    }

    Signatures signatures() {
        return signatures;
    }

    public List<Overload> overloads() {
        return signatures.overloads();
    }

    /** The user function instance this function's calls need in the generated class, or null. */
    public UdfInstance instance() {
        return instance;
    }

    @Override
    public boolean isDeterministic() {
        return deterministic;
    }

    @Override
    public boolean isDynamicFunction() {
        return dynamic;
    }

    /** Hands Calcite's code generator our implementor. */
    private static final class Implementation implements ImplementableFunction {
        private RsqlScalarFunction function;

        @Override
        public CallImplementor getImplementor() {
            return CallCodegen.scalar(function);
        }

        @Override
        public List<FunctionParameter> getParameters() {
            return List.of();
        }
    }
}
