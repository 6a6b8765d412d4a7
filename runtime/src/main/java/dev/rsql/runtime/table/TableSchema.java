package dev.rsql.runtime.table;

import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The columns a connector sees, in declaration order, and the primary key (upsert key) if any. */
public final class TableSchema {

    private final List<Column> columns;
    private final List<String> primaryKey;

    public TableSchema(List<Column> columns, List<String> primaryKey) {
        this.columns = List.copyOf(columns);
        this.primaryKey = List.copyOf(primaryKey);
    }

    public List<Column> columns() {
        return columns;
    }

    public List<String> primaryKey() {
        return primaryKey;
    }

    /** Indices of the primary key columns in {@link #columns()}. */
    public int[] primaryKeyIndices() {
        RowType rt = rowType();
        return primaryKey.stream().mapToInt(rt::indexOf).toArray();
    }

    /** All columns, as the rows of this table are laid out. */
    public RowType rowType() {
        return new RowType(columns.stream().map(Column::name).collect(Collectors.toList()),
                columns.stream().map(Column::type).collect(Collectors.toList()));
    }

    /** The payload columns only, in order. */
    public RowType physicalRowType() {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (Column c : columns) {
            if (c.isPhysical()) {
                names.add(c.name());
                types.add(c.type());
            }
        }
        return new RowType(names, types);
    }

    /** Positions of the payload columns within {@link #rowType()}. */
    public int[] physicalPositions() {
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).isPhysical()) {
                positions.add(i);
            }
        }
        return positions.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public String toString() {
        return columns.toString() + (primaryKey.isEmpty() ? "" : " PRIMARY KEY " + primaryKey);
    }
}
