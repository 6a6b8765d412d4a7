package dev.rsql.planner.functions;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlOperandTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Operand checking, NULL-literal typing and result typing of a function with several overloads. Picks the overload
 * that fits the arguments best ({@link Overload#resolve}); arguments that need a conversion the generated code cannot
 * do in Java (a string to a number) get a CAST, like Calcite's implicit coercion. A call no overload accepts fails
 * with Calcite's "Cannot apply" error listing every signature. Public for the operators of user aggregate functions
 * ({@code functions.udf}), which check their {@code accumulate} overloads the same way.
 */
public final class Signatures implements SqlOperandMetadata, SqlOperandTypeInference {

    private final String name;
    private final List<Overload> overloads;

    public Signatures(String name, List<Overload> overloads) {
        this.name = name;
        this.overloads = List.copyOf(overloads);
    }

    List<Overload> overloads() {
        return overloads;
    }

    static List<RelDataType> argTypes(SqlOperatorBinding binding) {
        List<RelDataType> types = new ArrayList<>();
        for (int i = 0; i < binding.getOperandCount(); i++) {
            types.add(binding.getOperandType(i));
        }
        return types;
    }

    /** The overload for these argument types; fails when there is none (the validator checked the call). */
    Overload resolve(List<RelDataType> argTypes) {
        Overload o = Overload.resolve(overloads, argTypes);
        if (o == null) {
            throw new IllegalStateException("no overload of " + name + " accepts " + argTypes);
        }
        return o;
    }

    RelDataType returnType(SqlOperatorBinding binding) {
        List<RelDataType> types = argTypes(binding);
        Overload o = resolve(types);
        RelDataType t = o.result().infer(binding.getTypeFactory(), types, binding);
        return t;
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
        List<RelDataType> types = argTypes(binding);
        Overload o = Overload.resolve(overloads, types);
        if (o == null) {
            if (throwOnFailure) {
                throw binding.newValidationSignatureError();
            }
            return false;
        }
        SqlValidator validator = binding.getValidator();
        RelDataTypeFactory f = binding.getTypeFactory();
        SqlCall call = binding.getCall();
        checkLiterals(binding, o);
        for (int i = 0; i < types.size(); i++) {
            RelDataType arg = types.get(i);
            if (o.param(i).cost(arg) < ParamType.COERCE) {
                continue;
            }
            RelDataType target = f.createTypeWithNullability(o.param(i).type(f), arg.isNullable());
            SqlNode operand = call.operand(i);
            SqlDataTypeSpec spec = SqlTypeUtil.convertTypeToSpec(target).withNullable(target.isNullable());
            SqlNode cast = SqlStdOperatorTable.CAST.createCall(operand.getParserPosition(), operand, spec);
            call.setOperand(i, cast);
            validator.setValidatedNodeType(cast, target);
        }
        return true;
    }

    /** Constant date formats and time zones are checked while planning, not on every record. */
    private void checkLiterals(SqlCallBinding binding, Overload o) {
        java.util.List<Class<?>> javaParams = o.invocation().sqlParameterTypes();
        for (int i = 0; i < binding.getOperandCount(); i++) {
            int p = o.varargs() && i >= javaParams.size() - 1 ? javaParams.size() - 1 : i;
            if (p >= javaParams.size() || !binding.isOperandLiteral(i, false) || binding.isOperandNull(i, false)) {
                continue;
            }
            Class<?> target = javaParams.get(p);
            if (target != DateFormat.class && target != java.time.ZoneId.class) {
                continue;
            }
            String text = binding.getOperandLiteralValue(i, String.class);
            if (text == null) {
                continue;
            }
            if (target == DateFormat.class && DateFormat.check(text) != null) {
                throw new org.apache.calcite.runtime.CalciteException(name + ": invalid date format '" + text + "': "
                        + DateFormat.check(text), null);
            }
            if (target == java.time.ZoneId.class && TimeZones.parse(text) == null) {
                throw new org.apache.calcite.runtime.CalciteException(name + ": unknown time zone '" + text
                        + "' (use an id such as 'Asia/Shanghai', 'UTC' or '+08:00')", null);
            }
        }
    }

    @Override
    public void inferOperandTypes(SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) {
        RelDataTypeFactory f = binding.getTypeFactory();
        List<RelDataType> known = new ArrayList<>();
        RelDataType unknown = binding.getValidator().getUnknownType();
        for (int i = 0; i < binding.getOperandCount(); i++) {
            RelDataType t;
            try {
                t = binding.getValidator().deriveType(binding.getScope(), binding.operand(i));
            } catch (RuntimeException e) {
                t = unknown;
            }
            known.add(t);
        }
        Overload o = Overload.resolve(overloads, known);
        for (int i = 0; i < operandTypes.length; i++) {
            RelDataType t = known.get(i);
            if (t != null && !t.equals(unknown) && t.getSqlTypeName() != SqlTypeName.NULL) {
                operandTypes[i] = t;
            } else if (o != null && o.param(i) != ParamType.ANY) {
                operandTypes[i] = o.param(i).type(f);
            } else {
                operandTypes[i] = ParamType.VARCHAR.type(f);
            }
        }
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
        return SqlOperandCountRanges.any();
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
        return overloads.stream().map(o -> o.signature() != null ? o.signature() : render(opName, o))
                .distinct().collect(Collectors.joining("\n"));
    }

    static String render(String name, Overload o) {
        List<String> ps = new ArrayList<>();
        for (int i = 0; i < o.params().size(); i++) {
            ps.add(o.params().get(i).sqlName() + (o.varargs() && i == o.params().size() - 1 ? "..." : ""));
        }
        return name + "(" + String.join(", ", ps) + ")";
    }

    @Override
    public List<RelDataType> paramTypes(RelDataTypeFactory typeFactory) {
        return List.of();
    }

    @Override
    public List<String> paramNames() {
        return List.of();
    }

    @Override
    public boolean isOptional(int i) {
        return false;
    }

    @Override
    public boolean isFixedParameters() {
        return false;
    }
}
