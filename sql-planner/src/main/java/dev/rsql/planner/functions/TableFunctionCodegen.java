package dev.rsql.planner.functions;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Statement;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.rel.type.RelDataType;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Generates the {@link TableInvoker} of one table function call: the argument values (already computed, in the
 * engine's internal representation) converted to the Java parameter types and passed straight to the function's
 * method; NULL handling and error wrapping as for scalar calls ({@link CallCodegen}).
 */
public final class TableFunctionCodegen {

    private static final JavaTypeFactoryImpl JAVA_TYPES = new JavaTypeFactoryImpl();

    private TableFunctionCodegen() {
    }

    public static ClassDeclaration generate(String className, RsqlTableFunction function, List<RelDataType> argTypes) {
        Overload o = function.signatures().resolve(argTypes);
        Invocation inv = o.invocation();
        ParameterExpression args = Expressions.parameter(Object[].class, "args");
        ParameterExpression out = Expressions.parameter(Consumer.class, "out");
        List<MemberDeclaration> members = new ArrayList<>();
        List<Statement> extraOpen = new ArrayList<>();
        BlockBuilder body = new BlockBuilder(false);

        ParameterExpression collector = Expressions.parameter(ForwardingCollector.class, "collector");
        UdfInstance instance = function.instance();
        if (function.style() == RsqlTableFunction.Style.COLLECTOR) {
            members.add(Expressions.fieldDecl(Modifier.PRIVATE | Modifier.FINAL, collector,
                    Expressions.new_(ForwardingCollector.class)));
            extraOpen.add(Expressions.statement(Expressions.call(UdfLifecycle.class, "setCollector",
                    Expressions.parameter(instance.type(), instance.field()), collector)));
            body.add(Expressions.statement(Expressions.call(collector, "target", out)));
        }
        members.addAll(FunctionMembers.declare(instance == null ? List.of() : List.of(instance), extraOpen));

        List<Class<?>> javaParams = inv.sqlParameterTypes();
        int fixed = inv.isVarArgs() ? javaParams.size() - 1 : javaParams.size();
        Class<?> varArgType = inv.isVarArgs() ? javaParams.get(fixed).getComponentType() : null;
        List<Expression> callArgs = new ArrayList<>();
        List<Expression> varArgs = new ArrayList<>();
        List<Expression> shown = new ArrayList<>();
        List<Expression> nullChecks = new ArrayList<>();
        for (int i = 0; i < argTypes.size(); i++) {
            RelDataType t = argTypes.get(i);
            Class<?> internal = CallCodegen.boxed(JAVA_TYPES.getJavaClass(t));
            if (internal == org.apache.calcite.avatica.util.ByteString.class) {
                internal = byte[].class; // calc outputs carry binary as byte[]
            }
            Expression raw = Expressions.arrayIndex(args, Expressions.constant(i));
            Class<?> target = i < fixed ? javaParams.get(i) : varArgType;
            if (o.strict() || target.isPrimitive()) {
                nullChecks.add(Expressions.equal(raw, RexImpTable.NULL_EXPR));
            }
            Expression typed = Expressions.convert_(raw, internal);
            Expression converted = CallCodegen.toJava(typed, t, target, inv.external());
            (i < fixed ? callArgs : varArgs).add(converted);
            shown.add(raw);
        }
        if (inv.isVarArgs()) {
            callArgs.add(Expressions.newArrayInit(varArgType, varArgs));
        }
        Expression call = inv.call(null, out, callArgs);
        if (function.style() == RsqlTableFunction.Style.RETURNS_LIST) {
            call = Expressions.call(ForwardingCollector.class, "emitAll", call, out);
        }
        Statement guarded = CallCodegen.tryCatch(function.getName(), Expressions.statement(call), shown);
        body.add(nullChecks.isEmpty() ? guarded
                : Expressions.ifThen(Expressions.not(Expressions.foldOr(nullChecks)), guarded));
        members.add(Expressions.methodDecl(Modifier.PUBLIC, void.class, "invoke", List.of(args, out),
                body.toBlock()));
        return Expressions.classDecl(Modifier.PUBLIC | Modifier.STATIC | Modifier.FINAL, className, null,
                List.of(TableInvoker.class), members);
    }
}
