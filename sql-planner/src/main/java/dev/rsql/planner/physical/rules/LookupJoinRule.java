package dev.rsql.planner.physical.rules;

import dev.rsql.planner.calcite.ConnectorTable;
import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.planner.functions.RsqlOperatorTable;
import dev.rsql.planner.physical.Lineage;
import dev.rsql.planner.physical.StreamPhysicalCalc;
import dev.rsql.planner.physical.StreamPhysicalLookupJoin;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Snapshot;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A join with a dimension table at processing time becomes a {@link StreamPhysicalLookupJoin}: Flink's
 * {@code JOIN d FOR SYSTEM_TIME AS OF s.proc} (a correlate over a snapshot whose period is the left row's
 * processing-time attribute) and Blink's {@code FOR SYSTEM_TIME AS OF PROCTIME()} (a join with a snapshot), INNER or
 * LEFT. The equalities of the condition between a table column and an expression of the left row that cover the
 * table's primary key or one of its {@code INDEX}es (any columns when the table declares neither) are the lookup
 * key; the rest (other equalities, constant filters of the table's columns, any predicate) is checked on each joined
 * row. Event-time snapshots are left to the temporal-join rule.
 */
public final class LookupJoinRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "LookupJoinRule", RelNode.class, LookupJoinRule::matches, LookupJoinRule::new);

    /** Creates a LookupJoinRule. */
    private LookupJoinRule(PhysicalRuleConfig config) {
        super(config);
    }

    /** The right side's parts: an optional calc over the snapshot of a connector table's scan. */
    private record Dim(Calc calc, Snapshot snapshot, CatalogTable table) {
    }

    private static boolean matches(RelNode rel) {
        if (!(rel instanceof LogicalCorrelate || rel instanceof LogicalJoin)) {
            return false;
        }
        JoinRelType type = rel instanceof LogicalJoin ? ((LogicalJoin) rel).getJoinType()
                : ((LogicalCorrelate) rel).getJoinType();
        Dim dim = dim(rel.getInput(1));
        return dim != null && (type == JoinRelType.INNER || type == JoinRelType.LEFT)
                && isProcTime(rel.getInput(0), dim.snapshot().getPeriod());
    }

    private static Dim dim(RelNode right) {
        RelNode r = StreamPhysicalCorrelateRule.unwrap(right);
        Calc calc = null;
        if (r instanceof Calc) {
            calc = (Calc) r;
            r = StreamPhysicalCorrelateRule.unwrap(calc.getInput());
        }
        if (!(r instanceof Snapshot)) {
            return null;
        }
        RelNode scan = StreamPhysicalCorrelateRule.unwrap(((Snapshot) r).getInput());
        if (!(scan instanceof TableScan)) {
            return null;
        }
        ConnectorTable t = ((TableScan) scan).getTable().unwrap(ConnectorTable.class);
        return t == null ? null : new Dim(calc, (Snapshot) r, t.catalogTable());
    }

    /** {@code PROCTIME()}, or a field of the left row that is a processing-time attribute. */
    private static boolean isProcTime(RelNode left, RexNode period) {
        if (period instanceof RexCall && ((RexCall) period).getOperator() == RsqlOperatorTable.PROCTIME) {
            return true;
        }
        if (period instanceof RexCall && period.getKind() == SqlKind.CAST) {
            return isProcTime(left, ((RexCall) period).getOperands().get(0));
        }
        return period instanceof RexFieldAccess
                && ((RexFieldAccess) period).getReferenceExpr() instanceof RexCorrelVariable
                && Lineage.time(left, ((RexFieldAccess) period).getField().getIndex()) == Lineage.Time.PROC;
    }

    @Override
    RelNode convert(RelNode rel) {
        RelNode left = rel.getInput(0);
        Dim dim = dim(rel.getInput(1));
        RexBuilder rex = rel.getCluster().getRexBuilder();
        RelDataTypeFactory types = rel.getCluster().getTypeFactory();
        JoinRelType joinType = rel instanceof LogicalJoin ? ((LogicalJoin) rel).getJoinType()
                : ((LogicalCorrelate) rel).getJoinType();
        int nl = left.getRowType().getFieldCount();
        RelDataType dimType = dim.snapshot().getRowType();
        int nd = dimType.getFieldCount();

        // The joined row: left fields, then the table's columns (nullable in a LEFT join).
        RelDataTypeFactory.Builder joined = types.builder();
        left.getRowType().getFieldList().forEach(f -> joined.add(f.getName(), f.getType()));
        for (RelDataTypeField f : dimType.getFieldList()) {
            joined.add("$dim$" + f.getName(), joinType == JoinRelType.LEFT
                    ? types.createTypeWithNullability(f.getType(), true) : f.getType());
        }
        RelDataType joinedType = joined.build();

        // Expressions of the right side's calc over the joined row: table columns shifted, $cor fields from the left.
        RexShuttle onJoined = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(nl + ref.getIndex(), joinedType.getFieldList().get(nl + ref.getIndex())
                        .getType());
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable) {
                    int i = access.getField().getIndex();
                    return new RexInputRef(i, left.getRowType().getFieldList().get(i).getType());
                }
                return super.visitFieldAccess(access);
            }
        };
        List<RexNode> conditions = new ArrayList<>();
        List<RexNode> rightFields = new ArrayList<>();
        if (dim.calc() != null) {
            RexProgram p = dim.calc().getProgram();
            if (p.getCondition() != null) {
                conditions.add(p.expandLocalRef(p.getCondition()).accept(onJoined));
            }
            p.getProjectList().forEach(e -> rightFields.add(p.expandLocalRef(e).accept(onJoined)));
        } else {
            for (int i = 0; i < nd; i++) {
                rightFields.add(new RexInputRef(nl + i, joinedType.getFieldList().get(nl + i).getType()));
            }
        }
        if (rel instanceof LogicalJoin) {
            conditions.add(((LogicalJoin) rel).getCondition().accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return ref.getIndex() < nl ? ref : rightFields.get(ref.getIndex() - nl);
                }
            }));
        }

        // Equalities table column = left expression are key candidates; everything else is residual.
        Map<Integer, RexNode> candidates = new LinkedHashMap<>();
        List<RexNode> residual = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(RexUtil.composeConjunction(rex, conditions))) {
            if (!keyCandidate(c, nl, candidates)) {
                residual.add(c);
            }
        }
        CatalogTable table = dim.table();
        List<String> names = dimType.getFieldNames();
        String problem = null;
        List<Integer> lookup = chooseKey(table, names, candidates.keySet());
        boolean unique = lookup != null && isUnique(table, names, lookup);
        if (table.hasComputedColumns()) {
            problem = "dimension table " + table.name() + " has computed columns; a lookup reads stored columns only";
        } else if (lookup == null) {
            problem = "lookup join with " + table.name() + " needs equalities on "
                    + (candidates.isEmpty() ? "" : "all columns of ") + declaredKeys(table)
                    + (candidates.isEmpty() ? ", e.g. ON s.k = " + table.name() + ".col; the condition has none"
                    : "; the condition has equalities on " + candidates.keySet().stream().map(names::get)
                    .collect(Collectors.joining(", ")));
            lookup = List.of();
        }
        List<RexNode> keys = new ArrayList<>();
        for (Map.Entry<Integer, RexNode> e : candidates.entrySet()) {
            if (lookup.contains(e.getKey())) {
                continue;
            }
            residual.add(rex.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS,
                    new RexInputRef(nl + e.getKey(), joinedType.getFieldList().get(nl + e.getKey()).getType()),
                    e.getValue()));
        }
        for (int col : lookup) {
            RelDataType target = types.createTypeWithNullability(dimType.getFieldList().get(col).getType(),
                    true);
            keys.add(rex.makeCast(target, candidates.get(col), true, false));
        }
        RexNode rest = RexUtil.composeConjunction(rex, residual);
        StreamPhysicalLookupJoin join = new StreamPhysicalLookupJoin(rel.getCluster(), rel.getTraitSet(), left,
                table, joinType, lookup.stream().mapToInt(Integer::intValue).toArray(), unique, keys,
                rest.isAlwaysTrue() ? null : rest, joinedType, problem);
        return project(join, rightFields, nl, rel.getRowType(), rex);
    }

    /** {@code dimColumn = leftExpr} (either way round): recorded as a candidate, once per column. */
    private static boolean keyCandidate(RexNode c, int nl, Map<Integer, RexNode> candidates) {
        if (c.getKind() != SqlKind.EQUALS) {
            return false;
        }
        List<RexNode> ops = ((RexCall) c).getOperands();
        for (int i = 0; i < 2; i++) {
            RexNode a = ops.get(i);
            RexNode b = ops.get(1 - i);
            if (a instanceof RexInputRef && ((RexInputRef) a).getIndex() >= nl) {
                ImmutableBitSet used = RelOptUtil.InputFinder.bits(b);
                if (!used.isEmpty() && used.nextSetBit(nl) < 0 && !RexUtil.containsCorrelation(b)
                        && !candidates.containsKey(((RexInputRef) a).getIndex() - nl)) {
                    candidates.put(((RexInputRef) a).getIndex() - nl, b);
                    return true;
                }
            }
        }
        return false;
    }

    /** The primary key or first index all of whose columns have an equality; any columns when none is declared. */
    private static List<Integer> chooseKey(CatalogTable table, List<String> names, java.util.Set<Integer> cols) {
        List<List<String>> declared = declared(table);
        if (declared.isEmpty()) {
            return cols.isEmpty() ? null : List.copyOf(cols);
        }
        for (List<String> key : declared) {
            List<Integer> idx = key.stream().map(n -> indexOf(names, n)).collect(Collectors.toList());
            if (!idx.contains(-1) && cols.containsAll(idx)) {
                return idx;
            }
        }
        return null;
    }

    private static List<List<String>> declared(CatalogTable table) {
        List<List<String>> keys = new ArrayList<>();
        if (!table.primaryKey().isEmpty()) {
            keys.add(table.primaryKey());
        }
        table.indexes().stream().filter(CatalogTable.Index::unique).forEach(i -> keys.add(i.columns()));
        table.indexes().stream().filter(i -> !i.unique()).forEach(i -> keys.add(i.columns()));
        return keys;
    }

    private static boolean isUnique(CatalogTable table, List<String> names, List<Integer> lookup) {
        List<List<String>> unique = new ArrayList<>();
        if (!table.primaryKey().isEmpty()) {
            unique.add(table.primaryKey());
        }
        table.indexes().stream().filter(CatalogTable.Index::unique).forEach(i -> unique.add(i.columns()));
        return unique.stream().anyMatch(k -> k.stream().map(n -> indexOf(names, n)).collect(Collectors.toSet())
                .equals(new java.util.HashSet<>(lookup)));
    }

    private static String declaredKeys(CatalogTable table) {
        List<List<String>> keys = declared(table);
        return keys.isEmpty() ? "a column of the table" : "its primary key or an INDEX: "
                + keys.stream().map(k -> "(" + String.join(", ", k) + ")").collect(Collectors.joining(" or "));
    }

    private static int indexOf(List<String> names, String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return i;
            }
        }
        return -1;
    }

    /** The join's output as the logical node had it: left fields, then the right side's projected fields. */
    private static RelNode project(StreamPhysicalLookupJoin join, List<RexNode> rightFields, int nl,
                                   RelDataType rowType, RexBuilder rex) {
        boolean identity = rightFields.size() == join.getRowType().getFieldCount() - nl;
        for (int i = 0; identity && i < rightFields.size(); i++) {
            identity = rightFields.get(i) instanceof RexInputRef
                    && ((RexInputRef) rightFields.get(i)).getIndex() == nl + i;
        }
        RexProgramBuilder program = new RexProgramBuilder(join.getRowType(), rex);
        List<RelDataTypeField> out = rowType.getFieldList();
        for (int i = 0; i < out.size(); i++) {
            RexNode e = i < nl ? rex.makeInputRef(join, i) : rightFields.get(i - nl);
            program.addProject(rex.ensureType(out.get(i).getType(), e, true), out.get(i).getName());
        }
        if (identity && RelOptUtil.areRowTypesEqual(join.getRowType(), rowType, false)) {
            return join;
        }
        return new StreamPhysicalCalc(join.getCluster(), join.getTraitSet(), join, program.getProgram());
    }
}
