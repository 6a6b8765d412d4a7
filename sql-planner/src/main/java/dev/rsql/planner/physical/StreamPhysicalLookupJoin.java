package dev.rsql.planner.physical;

import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A processing-time lookup join of a stream with a dimension table ({@code JOIN dim FOR SYSTEM_TIME AS OF s.proc}
 * or Blink's {@code AS OF PROCTIME()}): the dimension table is a field, not an input, for it is never a stream.
 * Output: the input's fields then every column of the table (nullable in a LEFT join). The input's changelog passes
 * through; its upsert keys too when the lookup columns are unique (at most one dimension row per input row).
 */
public final class StreamPhysicalLookupJoin extends SingleRel implements StreamPhysicalRel {

    private final CatalogTable table;
    private final JoinRelType joinType;
    private final int[] lookupColumns;
    private final boolean uniqueKey;
    private final List<RexNode> keys;
    private final RexNode residual;
    private final String problem;

    /**
     * @param lookupColumns the table's columns the keys are matched against (empty when {@code problem} says why)
     * @param keys          the key values, over the input row, typed as the lookup columns
     * @param residual      the rest of the condition over the joined row, or null
     * @param problem       why the join cannot run (reported with the statement's position), or null
     */
    public StreamPhysicalLookupJoin(RelOptCluster cluster, RelTraitSet traits, RelNode input, CatalogTable table,
                                    JoinRelType joinType, int[] lookupColumns, boolean uniqueKey, List<RexNode> keys,
                                    RexNode residual, RelDataType rowType, String problem) {
        super(cluster, traits, input);
        this.table = table;
        this.joinType = joinType;
        this.lookupColumns = lookupColumns.clone();
        this.uniqueKey = uniqueKey;
        this.keys = List.copyOf(keys);
        this.residual = residual;
        this.rowType = rowType;
        this.problem = problem;
    }

    public CatalogTable table() {
        return table;
    }

    public JoinRelType joinType() {
        return joinType;
    }

    public int[] lookupColumns() {
        return lookupColumns.clone();
    }

    public boolean uniqueKey() {
        return uniqueKey;
    }

    public List<RexNode> keys() {
        return keys;
    }

    public RexNode residual() {
        return residual;
    }

    public String problem() {
        return problem;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalLookupJoin(getCluster(), traitSet, sole(inputs), table, joinType, lookupColumns,
                uniqueKey, keys, residual, rowType, problem);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("table", table.name()).item("joinType", joinType)
                .item("lookup", Arrays.toString(lookupColumns)).item("keys", keys)
                .itemIf("residual", residual, residual != null);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return inputs.get(0);
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        return uniqueKey ? inputs.get(0) : List.of();
    }

    @Override
    public String describe() {
        List<String> names = table.columns().stream().map(c -> c.name()).collect(Collectors.toList());
        String on = Arrays.stream(lookupColumns).mapToObj(names::get).collect(Collectors.joining(", "));
        return "LookupJoin(table=[" + table.name() + "], joinType=[" + joinType.lowerName + "], lookup=[" + on + "]"
                + (residual == null ? "" : ", where=[" + RexFormatter.describe(residual, getRowType()) + "]") + ")";
    }
}
