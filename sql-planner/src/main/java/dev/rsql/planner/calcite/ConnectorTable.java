package dev.rsql.planner.calcite;

import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.runtime.table.TableDescriptor;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;

/** The columns a connector reads or writes: what a table scan reads and an INSERT writes. */
public final class ConnectorTable extends AbstractTable implements SystemTimeTable {

    private final CatalogTable table;
    private final RelDataType rowType;

    public ConnectorTable(CatalogTable table, RelDataType rowType) {
        this.table = table;
        this.rowType = rowType;
    }

    public CatalogTable catalogTable() {
        return table;
    }

    /** The table as the runtime sees it. */
    public TableDescriptor descriptor() {
        return table.descriptor();
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return rowType;
    }
}
