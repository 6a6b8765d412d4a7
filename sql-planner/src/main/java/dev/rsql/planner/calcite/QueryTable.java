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
import org.apache.calcite.util.ImmutableIntList;

import java.util.function.Supplier;

/**
 * A table defined by a query, expanded where it is read: a view, or a source table with computed columns or a
 * watermark (a query over its stored columns). Each expansion validates a fresh copy of the query. For a table with a
 * watermark the query's last column is the watermark candidate: it feeds a {@link WatermarkAssigner} and is then
 * projected away.
 */
public final class QueryTable extends AbstractTable implements TranslatableTable, SystemTimeTable {

    private final RelDataType rowType;
    private final Supplier<SqlNode> query;
    private final PlannerSession session;
    private final int rowtimeField;
    private final boolean view;

    /** A view or a table without watermark. */
    public QueryTable(RelDataType rowType, Supplier<SqlNode> query, PlannerSession session) {
        this(rowType, query, session, -1);
    }

    /**
     * @param rowtimeField the event-time column, when the query's extra last column is the table's watermark
     *                     strategy; -1 for none
     */
    public QueryTable(RelDataType rowType, Supplier<SqlNode> query, PlannerSession session, int rowtimeField) {
        this(rowType, query, session, rowtimeField, false);
    }

    private QueryTable(RelDataType rowType, Supplier<SqlNode> query, PlannerSession session, int rowtimeField,
                       boolean view) {
        this.rowType = rowType;
        this.query = query;
        this.session = session;
        this.rowtimeField = rowtimeField;
        this.view = view;
    }

    /** A view: errors about what its query plans into point at its query ({@link ViewScopes}). */
    public static QueryTable view(RelDataType rowType, Supplier<SqlNode> query, PlannerSession session) {
        return new QueryTable(rowType, query, session, -1, true);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return rowType;
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        SqlNode q = query.get();
        RelRoot root = session.expand(q, context.getCluster());
        RelNode rel = root.project();
        if (view) {
            rel = session.viewScopes().add(rel, q.getParserPosition());
        }
        if (rowtimeField >= 0) {
            int watermarkField = rel.getRowType().getFieldCount() - 1;
            rel = new WatermarkAssigner(rel.getCluster(), rel.getTraitSet(), rel, rowtimeField, watermarkField);
            rel = RelOptUtil.createProject(rel, ImmutableIntList.range(0, watermarkField));
        }
        if (!rel.getRowType().getFieldNames().equals(rowType.getFieldNames())) {
            rel = RelOptUtil.createRename(rel, rowType.getFieldNames());
        }
        return rel;
    }
}
