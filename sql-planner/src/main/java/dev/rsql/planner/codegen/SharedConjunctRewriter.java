package dev.rsql.planner.codegen;

import dev.rsql.planner.functions.RsqlScalarFunction;
import dev.rsql.planner.functions.SharedConjuncts;
import dev.rsql.planner.physical.RexFormatter;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the costly conjuncts that several calcs over one source filter on (by digest over the source's row) and
 * replaces each by a test against the source's {@link SharedConjuncts}, which evaluates it once per row for all of
 * them. Cheap conjuncts (comparisons, IN, ranges, IS NULL of columns, and the per-column pattern tests, which
 * {@link dev.rsql.planner.functions.PatternSet} already shares) stay inline: a lookup would cost more than them.
 * Conjuncts calling user functions (opened with their calc) or non-deterministic ones are never shared.
 */
final class SharedConjunctRewriter {

    /** Operators that evaluate in a few instructions over their operands. */
    private static final Set<SqlKind> CHEAP = EnumSet.of(SqlKind.AND, SqlKind.OR, SqlKind.NOT, SqlKind.EQUALS,
            SqlKind.NOT_EQUALS, SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
            SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_FALSE,
            SqlKind.IS_NOT_TRUE, SqlKind.IS_NOT_FALSE, SqlKind.SEARCH, SqlKind.CAST, SqlKind.PLUS, SqlKind.MINUS,
            SqlKind.TIMES, SqlKind.MINUS_PREFIX, SqlKind.FIELD_ACCESS, SqlKind.ITEM);

    /** The conjuncts shared among the calcs of one source, in order of first use. */
    record Shared(String setName, String source, RelDataType inputType, List<RexNode> conjuncts, List<Integer> users) {
    }

    private final String unitName;
    private final Map<String, Shared> sets = new LinkedHashMap<>();
    /** Digest of a shared conjunct of a source ("source|digest") to its index in the source's set. */
    private final Map<String, Integer> indexes = new LinkedHashMap<>();
    private int batches;

    SharedConjunctRewriter(String unitName) {
        this.unitName = unitName;
    }

    /** Picks the conjuncts to share among {@code programs}, of which {@code sources[i]} is program i's (or null). */
    void plan(List<RexProgram> programs, List<String> sources) {
        sets.clear();
        indexes.clear();
        batches++;
        Map<String, Integer> uses = new LinkedHashMap<>();
        Map<String, RexNode> nodes = new LinkedHashMap<>();
        Map<String, RelDataType> types = new LinkedHashMap<>();
        for (int i = 0; i < programs.size(); i++) {
            String source = sources.get(i);
            if (source == null) {
                continue;
            }
            Set<String> mine = new HashSet<>();
            for (RexNode c : candidates(programs.get(i))) {
                String key = source + "|" + c;
                if (mine.add(key)) {
                    uses.merge(key, 1, Integer::sum);
                    nodes.putIfAbsent(key, c);
                    types.putIfAbsent(source, programs.get(i).getInputRowType());
                }
            }
        }
        uses.forEach((key, count) -> {
            if (count < 2) {
                return;
            }
            String source = key.substring(0, key.indexOf('|'));
            Shared set = sets.computeIfAbsent(source, s -> new Shared(unitName + "#shared" + batches + "#" + s, s,
                    types.get(s), new ArrayList<>(), new ArrayList<>()));
            indexes.put(key, set.conjuncts().size());
            set.conjuncts().add(nodes.get(key));
            set.users().add(count);
        });
    }

    /** The program with its shared conjuncts replaced by tests against the source's set. */
    RexProgram rewrite(RexProgram program, String source, RexBuilder rexBuilder) {
        Shared set = source == null ? null : sets.get(source);
        if (set == null || program.getCondition() == null) {
            return program;
        }
        List<RexNode> conjuncts = RelOptUtil.conjunctions(program.expandLocalRef(program.getCondition()));
        List<RexNode> rewritten = new ArrayList<>();
        boolean changed = false;
        for (RexNode c : conjuncts) {
            Integer k = indexes.get(source + "|" + c);
            if (k == null) {
                rewritten.add(c);
            } else {
                rewritten.add(rexBuilder.makeCall(rexBuilder.getTypeFactory().createSqlType(SqlTypeName.BOOLEAN),
                        operator(set.setName(), k), List.of()));
                changed = true;
            }
        }
        if (!changed) {
            return program;
        }
        RexProgramBuilder b = new RexProgramBuilder(program.getInputRowType(), rexBuilder);
        List<RexLocalRef> projects = program.getProjectList();
        for (int i = 0; i < projects.size(); i++) {
            b.addProject(program.expandLocalRef(projects.get(i)),
                    program.getOutputRowType().getFieldNames().get(i));
        }
        b.addCondition(RexUtil.composeConjunction(rexBuilder, rewritten));
        return b.getProgram(false);
    }

    /** The sets of the last {@link #plan}. */
    List<Shared> sets() {
        return List.copyOf(sets.values());
    }

    /** For EXPLAIN: one line per shared conjunct, with its source and how many calcs test it. */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        for (Shared s : sets.values()) {
            for (int k = 0; k < s.conjuncts().size(); k++) {
                lines.add(s.source() + ": " + RexFormatter.describe(s.conjuncts().get(k), s.inputType()) + "  (in "
                        + s.users().get(k) + " calcs)");
            }
        }
        return lines;
    }

    /** The top-level conjuncts of the program's condition that are worth sharing. */
    private static List<RexNode> candidates(RexProgram program) {
        if (program.getCondition() == null) {
            return List.of();
        }
        List<RexNode> out = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(program.expandLocalRef(program.getCondition()))) {
            if (costly(c) && RexUtil.isDeterministic(c) && !callsUserFunction(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private static boolean costly(RexNode node) {
        Boolean found = node.accept(new RexVisitorImpl<Boolean>(true) {
            @Override
            public Boolean visitCall(RexCall call) {
                if (!CHEAP.contains(call.getKind()) && !call.getOperator().getName().startsWith("MATCHES[")) {
                    return true;
                }
                for (RexNode operand : call.getOperands()) {
                    if (Boolean.TRUE.equals(operand.accept(this))) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public Boolean visitInputRef(RexInputRef ref) {
                return false;
            }

            @Override
            public Boolean visitLiteral(RexLiteral literal) {
                return false;
            }
        });
        return Boolean.TRUE.equals(found);
    }

    /** True when the conjunct calls a user function instance (its calc opens and closes it). */
    private static boolean callsUserFunction(RexNode conjunct) {
        Boolean found = conjunct.accept(new RexVisitorImpl<Boolean>(true) {
            @Override
            public Boolean visitCall(RexCall call) {
                if (call.getOperator() instanceof RsqlScalarFunction
                        && ((RsqlScalarFunction) call.getOperator()).instance() != null) {
                    return true;
                }
                for (RexNode operand : call.getOperands()) {
                    if (Boolean.TRUE.equals(operand.accept(this))) {
                        return true;
                    }
                }
                return false;
            }
        });
        return Boolean.TRUE.equals(found);
    }

    private static SqlOperator operator(String setName, int index) {
        // one name per conjunct: calls are told apart by their digest, which shows operator and operands only
        return GeneratedCallOperator.of("SHARED[" + setName + "#" + index + "]", (translator, call, operands) ->
                Expressions.call(Expressions.call(SharedConjuncts.class, "named", Expressions.constant(setName)),
                        "test", Expressions.parameter(Object[].class, CalcCompiler.INPUT),
                        Expressions.constant(index)));
    }
}
