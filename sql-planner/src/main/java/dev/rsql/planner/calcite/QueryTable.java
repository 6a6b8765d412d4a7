package dev.rsql.planner.calcite;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;

import java.util.function.Supplier;

/**
 * A table defined by a query, expanded where it is read: a view, or a table with computed columns (a query over its
 * stored columns). Each expansion validates a fresh copy of the query.
 */
public final class QueryTable extends AbstractTable implements TranslatableTable {

    private final RelDataType rowType;
    private final Supplier<SqlNode> query;
    private final PlannerSession session;

    public QueryTable(RelDataType rowType, Supplier<SqlNode> query, PlannerSession session) {
        this.rowType = rowType;
        this.query = query;
        this.session = session;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return rowType;
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        RelRoot root = session.expand(query.get(), context.getCluster());
        RelNode rel = root.project();
        if (!rel.getRowType().getFieldNames().equals(rowType.getFieldNames())) {
            rel = RelOptUtil.createRename(rel, rowType.getFieldNames());
        }
        return rel;
    }
}
