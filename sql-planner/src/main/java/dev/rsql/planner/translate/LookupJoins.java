package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.planner.codegen.CalcCompiler;
import dev.rsql.planner.physical.StreamPhysicalLookupJoin;
import dev.rsql.runtime.graph.CalcFunction;
import dev.rsql.runtime.graph.GraphBuilder;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.function.Supplier;

/** Translates a {@link StreamPhysicalLookupJoin}: compiled key and residual functions around the lookup operator. */
final class LookupJoins {

    private LookupJoins() {
    }

    static GraphBuilder.Stream translate(StreamPhysicalLookupJoin join, GraphBuilder.Stream input,
                                         CalcCompiler compiler, SqlParserPos position) {
        if (join.problem() != null) {
            throw new PlanningException(position, join.problem());
        }
        RexBuilder rex = join.getCluster().getRexBuilder();
        RexProgramBuilder key = new RexProgramBuilder(join.getInput().getRowType(), rex);
        for (int i = 0; i < join.keys().size(); i++) {
            key.addProject(join.keys().get(i), "$key" + i);
        }
        Supplier<CalcFunction> condition = null;
        RexNode residual = join.residual();
        if (residual != null) {
            RexProgramBuilder program = new RexProgramBuilder(join.getRowType(), rex);
            program.addCondition(residual);
            program.addProject(rex.makeLiteral(true), "matches");
            condition = compiler.add(program.getProgram());
        }
        return input.lookupJoin(join.table().descriptor(), join.lookupColumns(), join.uniqueKey(),
                join.joinType() == JoinRelType.LEFT, compiler.add(key.getProgram()), condition,
                TypeConverter.toRowType(join.getRowType()), join.describe());
    }
}
