package dev.rsql.planner.functions;

import dev.rsql.planner.functions.udf.FunctionObjects;
import dev.rsql.runtime.graph.FunctionContext;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Statement;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexVisitorImpl;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The members a generated class needs for the user functions it calls: one field per function instance, created
 * with the class, and {@code open(FunctionContext)} / {@code close()} methods that open and close them.
 */
public final class FunctionMembers {

    private FunctionMembers() {
    }

    /** The user function instances a program's expressions call, in order of first use. */
    public static List<UdfInstance> instances(RexProgram program) {
        Map<String, UdfInstance> found = new LinkedHashMap<>();
        RexVisitorImpl<Void> visitor = new RexVisitorImpl<>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (call.getOperator() instanceof RsqlScalarFunction) {
                    UdfInstance i = ((RsqlScalarFunction) call.getOperator()).instance();
                    if (i != null) {
                        found.putIfAbsent(i.field(), i);
                    }
                }
                return super.visitCall(call);
            }
        };
        for (RexNode e : program.getExprList()) {
            e.accept(visitor);
        }
        return new ArrayList<>(found.values());
    }

    /** Members for a calc class: none when the program calls no user function. */
    public static List<MemberDeclaration> forProgram(RexProgram program) {
        List<UdfInstance> instances = instances(program);
        return instances.isEmpty() ? List.of() : declare(instances, List.of());
    }

    /**
     * Fields for the instances, and open/close methods; {@code extraOpen} statements run in {@code open} after the
     * instances are opened.
     */
    public static List<MemberDeclaration> declare(List<UdfInstance> instances, List<Statement> extraOpen) {
        List<MemberDeclaration> members = new ArrayList<>();
        ParameterExpression context = Expressions.parameter(FunctionContext.class, "context");
        BlockBuilder open = new BlockBuilder(false);
        BlockBuilder close = new BlockBuilder(false);
        for (UdfInstance i : instances) {
            ParameterExpression field = Expressions.parameter(i.type(), i.field());
            Expression created = i.objectKey() == null ? Expressions.new_(i.type())
                    : Expressions.convert_(Expressions.call(FunctionObjects.class, "instance",
                    Expressions.constant(i.objectKey())), i.type());
            members.add(Expressions.fieldDecl(Modifier.PRIVATE | Modifier.FINAL, field, created));
            open.add(Expressions.statement(Expressions.call(UdfLifecycle.class, "open", field, context,
                    Expressions.constant(i.functionName()))));
            close.add(Expressions.statement(Expressions.call(UdfLifecycle.class, "close", field,
                    Expressions.constant(i.functionName()))));
        }
        extraOpen.forEach(open::add);
        members.add(Expressions.methodDecl(Modifier.PUBLIC, void.class, "open", List.of(context), open.toBlock()));
        members.add(Expressions.methodDecl(Modifier.PUBLIC, void.class, "close", List.of(), close.toBlock()));
        return members;
    }
}
