package dev.rsql.planner.functions;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.TableFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.validate.SqlUserDefinedTableFunction;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.lang.reflect.Type;
import java.util.List;
import java.util.function.Function;

/**
 * A table function for {@code LATERAL TABLE(f(...))}: a built-in (a static method that hands rows to a consumer) or a
 * user function (a Flink {@code TableFunction} that collects rows, or a bean whose {@code eval} returns a list).
 * {@link TableFunctionCodegen} generates its call; {@link #rowConverter} turns what it emits into row fields.
 */
public final class RsqlTableFunction extends SqlUserDefinedTableFunction {

    /** How generated code calls the function and how it hands over rows. */
    public enum Style {
        /** A static method whose first parameter is a {@code Consumer<Object>} receiving {@code Object[]} rows. */
        STATIC_CONSUMER,
        /** A Flink/Blink {@code TableFunction}: {@code eval} calls {@code collect}. */
        COLLECTOR,
        /** A method returning a list (or array) of rows: maps by column name, or rows/tuples/lists/values by position. */
        RETURNS_LIST
    }

    /** The row type of a call. */
    @FunctionalInterface
    public interface RowTypeSpec {
        RelDataType infer(RelDataTypeFactory typeFactory, List<RelDataType> argTypes, SqlOperatorBinding binding);
    }

    private final Signatures signatures;
    private final RowTypeSpec rowType;
    private final Style style;
    private final UdfInstance instance;
    private final Function<RelDataType, Function<Object, Object[]>> converters;
    private final boolean deterministic;
    private final boolean columnsFromAlias;
    private final SqlReturnTypeInference rowInference;
    private boolean aliasVariant;

    private RsqlTableFunction(String name, Signatures signatures, RowTypeSpec rowType, Style style,
                              UdfInstance instance, Function<RelDataType, Function<Object, Object[]>> converters,
                              boolean deterministic, boolean columnsFromAlias) {
        this(name, signatures, rowType, style, instance, converters, deterministic, columnsFromAlias,
                new RowInference());
    }

    private RsqlTableFunction(String name, Signatures signatures, RowTypeSpec rowType, Style style,
                              UdfInstance instance, Function<RelDataType, Function<Object, Object[]>> converters,
                              boolean deterministic, boolean columnsFromAlias, RowInference inference) {
        super(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.CURSOR, signatures,
                signatures, NO_CALCITE_FUNCTION);
        this.rowInference = inference;
        inference.function = this;
        this.signatures = signatures;
        this.rowType = rowType;
        this.style = style;
        this.instance = instance;
        this.converters = converters;
        this.deterministic = deterministic;
        this.columnsFromAlias = columnsFromAlias;
    }

    /**
     * @param converters given the function's row type, makes the converter from an emitted value to the row's fields
     * @param columnsFromAlias true when the columns are named (and counted) by the query's {@code AS T(a, b)}: a
     *     bean returning maps, whose row type is only known from the alias (see {@link #withAliasColumns})
     */
    public static RsqlTableFunction create(String name, List<Overload> overloads, RowTypeSpec rowType, Style style,
                                           UdfInstance instance,
                                           Function<RelDataType, Function<Object, Object[]>> converters,
                                           boolean deterministic, boolean columnsFromAlias) {
        return new RsqlTableFunction(name, new Signatures(name, overloads), rowType, style, instance, converters,
                deterministic, columnsFromAlias);
    }

    /** This function with VARCHAR columns named as in the query's alias list. */
    public RsqlTableFunction withAliasColumns(List<String> columns) {
        RowTypeSpec spec = (f, args, b) -> {
            RelDataTypeFactory.Builder builder = f.builder();
            for (String c : columns) {
                builder.add(c, ParamType.VARCHAR.type(f));
            }
            return builder.build();
        };
        RsqlTableFunction f = new RsqlTableFunction(getName(), signatures, spec, style, instance, converters,
                deterministic, false);
        f.aliasVariant = true;
        return f;
    }

    /**
     * A variant made for one call's alias list must stay on that call: Calcite's {@code SqlFunction.deriveType}
     * would look the name up again and put the script's function (without columns) back.
     */
    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
        if (!aliasVariant) {
            return super.deriveType(validator, scope, call);
        }
        for (SqlNode operand : call.getOperandList()) {
            validator.deriveType(scope, operand);
        }
        return validateOperands(validator, scope, call);
    }

    public boolean columnsFromAlias() {
        return columnsFromAlias;
    }

    Signatures signatures() {
        return signatures;
    }

    public List<Overload> overloads() {
        return signatures.overloads();
    }

    public Style style() {
        return style;
    }

    public UdfInstance instance() {
        return instance;
    }

    /** The converter from emitted values to fields, for this function's row type in a plan. */
    public Function<Object, Object[]> rowConverter(RelDataType functionRowType) {
        return converters.apply(functionRowType);
    }

    @Override
    public boolean isDeterministic() {
        return deterministic;
    }

    @Override
    public SqlReturnTypeInference getRowTypeInference() {
        return rowInference;
    }

    private RelDataType inferRowType(SqlOperatorBinding binding) {
        if (columnsFromAlias) {
            throw new IllegalArgumentException("table function " + getName()
                    + " returns maps: name its columns in the query, e.g. LATERAL TABLE(" + getName()
                    + "(...)) AS T(a, b)");
        }
        List<RelDataType> args = Signatures.argTypes(binding);
        return rowType.infer(binding.getTypeFactory(), args, binding);
    }

    /** The row type inference handed to Calcite before {@code this} exists. */
    private static final class RowInference implements SqlReturnTypeInference {
        private RsqlTableFunction function;

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding binding) {
            return function.inferRowType(binding);
        }
    }

    /** Calcite wants a schema function behind a user-defined table function; ours are never called through it. */
    private static final TableFunction NO_CALCITE_FUNCTION = new TableFunction() {
        @Override
        public RelDataType getRowType(RelDataTypeFactory typeFactory, List<? extends Object> arguments) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Type getElementType(List<? extends Object> arguments) {
            return Object[].class;
        }

        @Override
        public List<FunctionParameter> getParameters() {
            return List.of();
        }
    };
}
