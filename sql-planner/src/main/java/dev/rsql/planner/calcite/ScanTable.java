package dev.rsql.planner.calcite;

import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.plan.RelOptSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelDistribution;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelReferentialConstraint;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * A catalog table as one scan sees it: the same table, but an object of its own, so that the scans of one table in
 * different views can be told apart ({@link ViewScopes}); the catalog hands out one object per table.
 */
final class ScanTable implements RelOptTable {

    private final RelOptTable table;

    ScanTable(RelOptTable table) {
        this.table = table;
    }

    @Override
    public List<String> getQualifiedName() {
        return table.getQualifiedName();
    }

    @Override
    public double getRowCount() {
        return table.getRowCount();
    }

    @Override
    public RelDataType getRowType() {
        return table.getRowType();
    }

    @Override
    public RelOptSchema getRelOptSchema() {
        return table.getRelOptSchema();
    }

    @Override
    public RelNode toRel(ToRelContext context) {
        return table.toRel(context);
    }

    @Override
    public List<RelCollation> getCollationList() {
        return table.getCollationList();
    }

    @Override
    public RelDistribution getDistribution() {
        return table.getDistribution();
    }

    @Override
    public boolean isKey(ImmutableBitSet columns) {
        return table.isKey(columns);
    }

    @Override
    public List<ImmutableBitSet> getKeys() {
        return table.getKeys();
    }

    @Override
    public List<RelReferentialConstraint> getReferentialConstraints() {
        return table.getReferentialConstraints();
    }

    @Override
    public Expression getExpression(Class clazz) {
        return table.getExpression(clazz);
    }

    @Override
    public RelOptTable extend(List<RelDataTypeField> extendedFields) {
        return table.extend(extendedFields);
    }

    @Override
    public List<ColumnStrategy> getColumnStrategies() {
        return table.getColumnStrategies();
    }

    @Override
    public <C> C unwrap(Class<C> aClass) {
        return aClass.isInstance(this) ? aClass.cast(this) : table.unwrap(aClass);
    }
}
