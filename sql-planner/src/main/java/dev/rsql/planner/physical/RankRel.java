package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * What the TopN nodes share (the regular one and the window one): ROW_NUMBER, RANK or DENSE_RANK over a partition,
 * filtered to a range of ranks. Output: the input's fields, then the rank when a consumer reads it.
 */
abstract class RankRel extends SingleRel implements StreamPhysicalRel {

    protected final ImmutableBitSet partitionKeys;
    protected final RelCollation order;
    protected final SqlKind function;
    protected final long rankStart;
    protected final long rankEnd;
    protected final boolean outputRankNumber;

    RankRel(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet partitionKeys,
            RelCollation order, SqlKind function, long rankStart, long rankEnd, boolean outputRankNumber,
            String rankName) {
        super(cluster, traits, input);
        this.partitionKeys = partitionKeys;
        this.order = order;
        this.function = function;
        this.rankStart = rankStart;
        this.rankEnd = rankEnd;
        this.outputRankNumber = outputRankNumber;
        RelDataType type = input.getRowType();
        if (outputRankNumber) {
            type = cluster.getTypeFactory().builder().addAll(type.getFieldList())
                    .add(rankName, cluster.getTypeFactory().createSqlType(SqlTypeName.BIGINT)).uniquify().build();
        }
        this.rowType = type;
    }

    /** The name of the rank column, for a copy. */
    protected String rankName() {
        return outputRankNumber ? rowType.getFieldNames().get(rankField()) : "rk";
    }

    /** Where the rank column is, when it is output. */
    protected int rankField() {
        return getInput().getRowType().getFieldCount();
    }

    public ImmutableBitSet partitionKeys() {
        return partitionKeys;
    }

    public List<RelFieldCollation> orderFields() {
        return order.getFieldCollations();
    }

    public SqlKind function() {
        return function;
    }

    public long rankStart() {
        return rankStart;
    }

    public long rankEnd() {
        return rankEnd;
    }

    public boolean outputRankNumber() {
        return outputRankNumber;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("function", function).item("partitionBy", partitionKeys)
                .item("orderBy", order).item("rankRange", rankStart + ".." + rankEnd)
                .item("outputRankNumber", outputRankNumber);
    }
}
