package dev.rsql.planner.translate;

import dev.rsql.planner.PlanningException;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Removes subqueries from a converted plan, as Flink's FlinkSubQueryRemoveRule and SubQueryDecorrelator do, so that
 * the physical rules see joins:
 * <ul>
 * <li>{@code x IN (SELECT y ...)} and {@code EXISTS (...)}, conjuncts of a WHERE or HAVING, become a SEMI join on
 * {@code x = y}; {@code NOT IN} and {@code NOT EXISTS} an ANTI join. {@code NOT IN} is null-aware: a subquery row
 * matches when {@code x = y} is not false, so a NULL on either side removes the left row (unless the subquery is
 * empty), as SQL requires; columns declared NOT NULL on both sides stay plain equalities;</li>
 * <li>a scalar subquery (in SELECT or WHERE) becomes a LEFT join with its single row: one that is not correlated
 * joins on a constant key and must be sure to return at most one row (an aggregate without GROUP BY); a correlated
 * one must be an aggregate without GROUP BY, which becomes an aggregate grouped by the correlated columns (COUNT of
 * no rows is 0, so a missing group reads 0);</li>
 * <li>correlation is decorrelated when the subquery refers to the outer row only in conjuncts of its top WHERE
 * (under projections): they join the two sides.</li>
 * </ul>
 * A join without an equality between its sides (a subquery without correlation, a NOT IN over nullable columns) gets
 * a constant key on both sides, so it runs in one task. Every other form fails with the subquery's position.
 */
public final class SubQueryRewriter {

    private final RexBuilder rex;
    private final Function<RelNode, SqlParserPos> positions;
    private final SqlParserPos fallback;

    private SubQueryRewriter(RexBuilder rex, Function<RelNode, SqlParserPos> positions, SqlParserPos fallback) {
        this.rex = rex;
        this.positions = positions;
        this.fallback = fallback;
    }

    /**
     * @param positions where the query whose plan is a subquery's stands in the script (null if unknown)
     * @param fallback the statement's position, for a subquery whose own is unknown
     */
    public static RelNode rewrite(RelNode rel, Function<RelNode, SqlParserPos> positions, SqlParserPos fallback) {
        return new SubQueryRewriter(rel.getCluster().getRexBuilder(), positions, fallback).visit(rel);
    }

    private RelNode visit(RelNode node) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode in : node.getInputs()) {
            RelNode r = visit(in);
            inputs.add(r);
            changed |= r != in;
        }
        if (changed) {
            node = node.copy(node.getTraitSet(), inputs);
        }
        if (node instanceof LogicalFilter && RexUtil.SubQueryFinder.find(((LogicalFilter) node).getCondition())
                != null) {
            return filter((LogicalFilter) node);
        }
        if (node instanceof LogicalProject && RexUtil.SubQueryFinder.find(((LogicalProject) node).getProjects())
                != null) {
            return project((LogicalProject) node);
        }
        if (node instanceof LogicalJoin) {
            RexSubQuery sq = RexUtil.SubQueryFinder.find(((LogicalJoin) node).getCondition());
            if (sq != null) {
                throw refuse(sq, "a subquery in a join condition is not supported (move it into the WHERE clause)");
            }
        }
        return node;
    }

    /** WHERE / HAVING: semi and anti joins for the IN / EXISTS conjuncts, left joins for scalar subqueries. */
    private RelNode filter(LogicalFilter f) {
        RelNode left = f.getInput();
        int width = left.getRowType().getFieldCount();
        List<RexNode> rest = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
            boolean negated = c.isA(SqlKind.NOT) && ((RexCall) c).getOperands().get(0) instanceof RexSubQuery;
            RexNode inner = negated ? ((RexCall) c).getOperands().get(0) : c;
            if (inner instanceof RexSubQuery && (inner.isA(SqlKind.IN) || inner.isA(SqlKind.EXISTS))) {
                left = semiAnti(left, (RexSubQuery) inner, negated);
            } else {
                rest.add(c);
            }
        }
        ScalarJoins scalars = new ScalarJoins(left);
        RexNode condition = RexUtil.composeConjunction(rex, rest).accept(scalars);
        RelNode out = scalars.left;
        if (!condition.isAlwaysTrue()) {
            out = LogicalFilter.create(out, condition);
        }
        return out.getRowType().getFieldCount() == width ? out : prefix(out, width);
    }

    /** SELECT: scalar subqueries as left joins. */
    private RelNode project(LogicalProject p) {
        ScalarJoins scalars = new ScalarJoins(p.getInput());
        List<RexNode> exprs = new ArrayList<>();
        for (RexNode e : p.getProjects()) {
            exprs.add(e.accept(scalars));
        }
        return LogicalProject.create(scalars.left, p.getHints(), exprs, p.getRowType().getFieldNames(), Set.of());
    }

    /** Replaces each scalar subquery of an expression by a field of its row, left-joined to {@link #left}. */
    private final class ScalarJoins extends RexShuttle {
        RelNode left;

        ScalarJoins(RelNode left) {
            this.left = left;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery sq) {
            if (!sq.isA(SqlKind.SCALAR_QUERY)) {
                throw refuse(sq, sq.getKind() + " subqueries are supported only as conjuncts of a WHERE clause, "
                        + "optionally negated with NOT (not under OR, in SELECT or in an expression)");
            }
            Scalar s = scalar(left, sq);
            left = s.rel();
            return s.value();
        }
    }

    private record Scalar(RelNode rel, RexNode value) {
    }

    /** What a subquery's plan becomes without correlation. */
    private record Decorrelated(RelNode rel, List<RexNode> conditions, List<RexNode> fields) {
    }

    private RelNode semiAnti(RelNode left, RexSubQuery sq, boolean anti) {
        SqlParserPos pos = position(sq);
        int width = left.getRowType().getFieldCount();
        Decorrelated d = decorrelate(visit(sq.rel), left.getRowType(), pos);
        List<RexNode> conditions = new ArrayList<>(d.conditions());
        if (sq.isA(SqlKind.IN)) {
            List<RexNode> nullable = new ArrayList<>();
            for (int i = 0; i < sq.getOperands().size(); i++) {
                RexNode a = sq.getOperands().get(i);
                RexNode b = RexUtil.shift(d.fields().get(i), width);
                RexNode eq = equal(a, b);
                if (anti && (a.getType().isNullable() || b.getType().isNullable())) {
                    nullable.add(eq);
                } else {
                    conditions.add(eq);
                }
            }
            if (!nullable.isEmpty()) {
                // x NOT IN (...) is not true when x = y is unknown for some row of the subquery
                conditions.add(rex.makeCall(SqlStdOperatorTable.IS_NOT_FALSE,
                        RexUtil.composeConjunction(rex, nullable)));
            }
        }
        RelNode joined = join(left, d.rel(), conditions, anti ? JoinRelType.ANTI : JoinRelType.SEMI);
        return joined.getRowType().getFieldCount() == width ? joined : prefix(joined, width);
    }

    private Scalar scalar(RelNode left, RexSubQuery sq) {
        SqlParserPos pos = position(sq);
        RelNode sub = visit(sq.rel);
        int width = left.getRowType().getFieldCount();
        if (RelOptUtil.getVariablesUsed(sub).isEmpty()) {
            Double rows = sub.getCluster().getMetadataQuery().getMaxRowCount(sub);
            if (rows == null || rows > 1) {
                throw new PlanningException(pos, "a scalar subquery must return at most one row, and this one may "
                        + "return more: use an aggregate without GROUP BY, e.g. (SELECT MAX(x) FROM ...)");
            }
            RelNode joined = join(left, sub, List.of(), JoinRelType.LEFT);
            int at = joined.getRowType().getFieldCount() - 1;
            return new Scalar(joined, rex.ensureType(sq.getType(), RexInputRef.of(at, joined.getRowType()), true));
        }
        // correlated: an aggregate without GROUP BY (under a projection of its value), grouped by the correlation
        RelNode top = sub;
        int valueField = 0;
        if (top instanceof LogicalProject && ((LogicalProject) top).getProjects().get(0) instanceof RexInputRef) {
            valueField = ((RexInputRef) ((LogicalProject) top).getProjects().get(0)).getIndex();
            top = ((LogicalProject) top).getInput();
        }
        if (!(top instanceof LogicalAggregate) || !((Aggregate) top).getGroupSet().isEmpty()
                || ((Aggregate) top).getAggCallList().size() <= valueField) {
            throw new PlanningException(pos, "a correlated scalar subquery must be an aggregate without GROUP BY, "
                    + "e.g. (SELECT COUNT(*) FROM t WHERE t.k = o.k)");
        }
        Aggregate agg = (Aggregate) top;
        Decorrelated d = decorrelate(agg.getInput(), left.getRowType(), pos);
        List<RexNode> projects = new ArrayList<>(d.fields());
        List<RexNode> outerKeys = new ArrayList<>();
        for (RexNode c : d.conditions()) {
            RexNode[] sides = equalitySides(c, width);
            if (sides == null) {
                throw new PlanningException(pos, "a correlated scalar subquery can only compare columns with "
                        + "outer columns by equality (=) in its WHERE clause");
            }
            outerKeys.add(sides[0]);
            projects.add(RexUtil.shift(sides[1], -width));
        }
        RelNode input = LogicalProject.create(d.rel(), List.of(), projects, (List<String>) null, Set.of());
        ImmutableBitSet groups = ImmutableBitSet.range(d.fields().size(), projects.size());
        AggregateCall call = agg.getAggCallList().get(valueField)
                .adaptTo(input, agg.getAggCallList().get(valueField).getArgList(),
                        agg.getAggCallList().get(valueField).filterArg, 0, groups.cardinality());
        RelNode grouped = LogicalAggregate.create(input, List.of(), groups, null, List.of(call));
        List<RexNode> conditions = new ArrayList<>();
        for (int i = 0; i < outerKeys.size(); i++) {
            conditions.add(equal(outerKeys.get(i),
                    new RexInputRef(width + i, grouped.getRowType().getFieldList().get(i).getType())));
        }
        RelNode joined = join(left, grouped, conditions, JoinRelType.LEFT);
        RexNode value = RexInputRef.of(joined.getRowType().getFieldCount() - 1, joined.getRowType());
        if (call.getAggregation().getKind() == SqlKind.COUNT) {
            // no row of the group: the subquery counts none
            value = rex.makeCall(SqlStdOperatorTable.COALESCE, value, rex.makeZeroLiteral(value.getType()));
        }
        return new Scalar(joined, rex.ensureType(sq.getType(), value, true));
    }

    /**
     * The subquery's plan without references to the outer row (of type {@code outer}): conjuncts of a WHERE that
     * refer to it become join conditions, over the outer fields then the returned plan's; the subquery's columns
     * become expressions over the returned plan.
     */
    private Decorrelated decorrelate(RelNode sub, RelDataType outer, SqlParserPos pos) {
        if (RelOptUtil.getVariablesUsed(sub).isEmpty()) {
            List<RexNode> fields = new ArrayList<>();
            for (int i = 0; i < sub.getRowType().getFieldCount(); i++) {
                fields.add(RexInputRef.of(i, sub.getRowType()));
            }
            return new Decorrelated(sub, List.of(), fields);
        }
        if (sub instanceof LogicalProject && RexUtil.SubQueryFinder.find(((LogicalProject) sub).getProjects()) == null
                && !usesCorrelation(((LogicalProject) sub).getProjects())) {
            Decorrelated in = decorrelate(((LogicalProject) sub).getInput(), outer, pos);
            List<RexNode> fields = new ArrayList<>();
            for (RexNode e : ((LogicalProject) sub).getProjects()) {
                fields.add(substitute(e, in.fields()));
            }
            return new Decorrelated(in.rel(), in.conditions(), fields);
        }
        if (sub instanceof LogicalFilter) {
            LogicalFilter f = (LogicalFilter) sub;
            Decorrelated in = decorrelate(f.getInput(), outer, pos);
            int width = outer.getFieldCount();
            List<RexNode> kept = new ArrayList<>();
            List<RexNode> conditions = new ArrayList<>(in.conditions());
            for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
                RexNode over = substitute(c, in.fields());
                if (usesCorrelation(List.of(c))) {
                    conditions.add(outerRefs(RexUtil.shift(over, width), outer, pos));
                } else {
                    kept.add(over);
                }
            }
            RelNode rel = kept.isEmpty() ? in.rel() : LogicalFilter.create(in.rel(),
                    RexUtil.composeConjunction(rex, kept));
            return new Decorrelated(rel, conditions, in.fields());
        }
        throw new PlanningException(pos, "a correlated subquery may refer to the outer query only in conjuncts of "
                + "its WHERE clause (not under its GROUP BY, joins, UNION or SELECT list)");
    }

    /** The outer row's fields, read through the correlation variable, as input refs of the outer (left) side. */
    private RexNode outerRefs(RexNode e, RelDataType outer, SqlParserPos pos) {
        return e.accept(new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable) {
                    if (!access.getReferenceExpr().getType().equals(outer)) {
                        throw new PlanningException(pos, "a subquery may refer only to the query right around it");
                    }
                    return new RexInputRef(access.getField().getIndex(), access.getType());
                }
                return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                throw new PlanningException(pos, "a subquery may refer only to columns of the outer query");
            }
        });
    }

    private static boolean usesCorrelation(List<RexNode> exprs) {
        boolean[] found = {false};
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                found[0] = true;
                return variable;
            }
        };
        exprs.forEach(e -> e.accept(finder));
        return found[0];
    }

    /** {@code e} with each input ref i replaced by {@code fields.get(i)}. */
    private static RexNode substitute(RexNode e, List<RexNode> fields) {
        return e.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return fields.get(ref.getIndex());
            }
        });
    }

    /** For {@code outerExpr = innerExpr} (either way round), the two sides, outer first; else null. */
    private static RexNode[] equalitySides(RexNode c, int width) {
        if (!c.isA(SqlKind.EQUALS)) {
            return null;
        }
        RexNode a = ((RexCall) c).getOperands().get(0);
        RexNode b = ((RexCall) c).getOperands().get(1);
        ImmutableBitSet ia = RelOptUtil.InputFinder.bits(a);
        ImmutableBitSet ib = RelOptUtil.InputFinder.bits(b);
        ImmutableBitSet outer = ImmutableBitSet.range(width);
        if (!ia.isEmpty() && outer.contains(ia) && !ib.isEmpty() && ib.nextSetBit(0) >= width) {
            return new RexNode[] {a, b};
        }
        if (!ib.isEmpty() && outer.contains(ib) && !ia.isEmpty() && ia.nextSetBit(0) >= width) {
            return new RexNode[] {b, a};
        }
        return null;
    }

    /** {@code a = b}, both in their common type. */
    private RexNode equal(RexNode a, RexNode b) {
        if (!SqlTypeUtil.equalSansNullability(rex.getTypeFactory(), a.getType(), b.getType())) {
            RelDataType common = rex.getTypeFactory().leastRestrictive(List.of(a.getType(), b.getType()));
            if (common != null) {
                a = rex.makeCast(rex.getTypeFactory().createTypeWithNullability(common, a.getType().isNullable()), a);
                b = rex.makeCast(rex.getTypeFactory().createTypeWithNullability(common, b.getType().isNullable()), b);
            }
        }
        return rex.makeCall(SqlStdOperatorTable.EQUALS, a, b);
    }

    /**
     * The join of the two sides on the conditions (over left fields then right fields). Without an equality between
     * the sides, both get a constant key column (the left's last, the right's last) that they join on.
     */
    private RelNode join(RelNode left, RelNode right, List<RexNode> conditions, JoinRelType type) {
        int width = left.getRowType().getFieldCount();
        boolean keyed = conditions.stream().anyMatch(c -> equalitySides(c, width) != null);
        RexNode condition = RexUtil.composeConjunction(rex, conditions);
        if (!keyed) {
            left = withConstantKey(left);
            right = withConstantKey(right);
            int rightWidth = right.getRowType().getFieldCount();
            condition = RexUtil.composeConjunction(rex, List.of(RexUtil.shift(condition, width, 1),
                    rex.makeCall(SqlStdOperatorTable.EQUALS, RexInputRef.of(width, left.getRowType()),
                            new RexInputRef(width + rightWidth, left.getRowType().getFieldList().get(width)
                                    .getType()))));
        }
        RelNode joined = LogicalJoin.create(left, right, List.of(), condition, Set.of(), type);
        if (keyed || !type.projectsRight()) {
            return joined;
        }
        // drop the constant keys again: left fields, then right fields
        List<RexNode> exprs = new ArrayList<>();
        for (int i = 0; i < joined.getRowType().getFieldCount(); i++) {
            if (i != width && i != joined.getRowType().getFieldCount() - 1) {
                exprs.add(RexInputRef.of(i, joined.getRowType()));
            }
        }
        return LogicalProject.create(joined, List.of(), exprs, (List<String>) null, Set.of());
    }

    private RelNode withConstantKey(RelNode rel) {
        List<RexNode> exprs = new ArrayList<>();
        for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
            exprs.add(RexInputRef.of(i, rel.getRowType()));
        }
        exprs.add(rex.makeExactLiteral(BigDecimal.ZERO,
                rex.getTypeFactory().createSqlType(SqlTypeName.INTEGER)));
        List<String> names = new ArrayList<>(rel.getRowType().getFieldNames());
        names.add("$constant_key");
        return LogicalProject.create(rel, List.of(), exprs, names, Set.of());
    }

    /** The first {@code width} fields of {@code rel}. */
    private static RelNode prefix(RelNode rel, int width) {
        return RelOptUtil.createProject(rel, ImmutableIntList.range(0, width));
    }

    private PlanningException refuse(RexSubQuery sq, String message) {
        return new PlanningException(position(sq), message);
    }

    private SqlParserPos position(RexSubQuery sq) {
        SqlParserPos pos = positions.apply(sq.rel);
        return pos == null ? fallback : pos;
    }
}
