package dev.rsql.planner.calcite;

import dev.rsql.planner.PlanningException;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorTable;

import java.util.List;

/**
 * Calcite's validator with Flink's rule for INSERT: a query column is written to its sink column only where the
 * cast is implicit in Flink ({@link ImplicitCasts}). Calcite would otherwise add a CAST from STRING to BIGINT that
 * fails on the first row that is not a number.
 */
final class RsqlValidator extends SqlValidatorImpl {

    RsqlValidator(SqlOperatorTable operators, SqlValidatorCatalogReader catalogReader, RelDataTypeFactory typeFactory,
                  Config config) {
        super(operators, catalogReader, typeFactory, config);
    }

    @Override
    protected void checkTypeAssignment(SqlValidatorScope sourceScope, SqlValidatorTable table,
                                       RelDataType sourceRowType, RelDataType targetRowType, SqlNode query) {
        List<RelDataTypeField> sources = sourceRowType.getFieldList();
        List<RelDataTypeField> targets = targetRowType.getFieldList();
        for (int i = 0; i < Math.min(sources.size(), targets.size()); i++) {
            RelDataType from = sources.get(i).getType();
            RelDataType to = targets.get(i).getType();
            if (!ImplicitCasts.allowed(from, to)) {
                String column = targets.get(i).getName();
                throw new PlanningException(item(query, i, sources.size()).getParserPosition(), "INSERT INTO "
                        + tableName(table) + ": column " + column + " (position " + (i + 1) + ") is "
                        + typeName(to) + " and the query gives it " + typeName(from) + "; write CAST(... AS "
                        + typeName(to) + ") if the conversion is meant (only widening casts are implicit)");
            }
        }
        super.checkTypeAssignment(sourceScope, table, sourceRowType, targetRowType, query);
    }

    /**
     * Calcite's lenient conformance lets an INSERT write fewer columns than the table (or its column list) has and
     * fills the rest with NULL, and fails on more; Flink rejects both, and so do we: a forgotten column is a mistake.
     */
    @Override
    protected RelDataType getLogicalTargetRowType(RelDataType targetRowType, SqlInsert insert) {
        SqlValidatorNamespace source = getNamespace(insert.getSource());
        int columns = source == null ? targetRowType.getFieldCount() : source.getRowType().getFieldCount();
        if (columns != targetRowType.getFieldCount()) {
            String name = tableName(getNamespace(insert).getTable());
            throw new PlanningException(insert.getSource().getParserPosition(), "INSERT INTO " + name
                    + ": the query gives " + columns + " column" + (columns == 1 ? "" : "s") + " but "
                    + (insert.getTargetColumnList() == null ? "table " + name + " has " : "the INSERT names ")
                    + targetRowType.getFieldCount() + " " + targetRowType.getFieldNames());
        }
        return super.getLogicalTargetRowType(targetRowType, insert);
    }

    private static String tableName(SqlValidatorTable table) {
        ConnectorTable t = table.unwrap(ConnectorTable.class);
        List<String> names = table.getQualifiedName();
        return t != null ? t.catalogTable().name() : names.get(names.size() - 1);
    }

    private static String typeName(RelDataType type) {
        if (type.getSqlTypeName() == SqlTypeName.NULL) {
            return "NULL";
        }
        String name = TypeConverter.toDataType(type).toString();
        return name.endsWith(" NOT NULL") ? name.substring(0, name.length() - " NOT NULL".length()) : name;
    }

    /** The query's expression for column {@code i} of {@code count}, for the error's position. */
    private static SqlNode item(SqlNode query, int i, int count) {
        if (query instanceof SqlInsert) {
            return item(((SqlInsert) query).getSource(), i, count);
        }
        if (query instanceof SqlSelect) {
            SqlNodeList items = ((SqlSelect) query).getSelectList();
            return items.size() == count ? items.get(i) : query;
        }
        if (query.getKind() == SqlKind.UNION || query.getKind() == SqlKind.ORDER_BY
                || query.getKind() == SqlKind.WITH) {
            SqlCall call = (SqlCall) query;
            return item(call.operand(query.getKind() == SqlKind.WITH ? 1 : 0), i, count);
        }
        if (query.getKind() == SqlKind.VALUES) {
            SqlNode row = ((SqlBasicCall) query).operand(0);
            return row instanceof SqlCall && ((SqlCall) row).operandCount() == count ? ((SqlCall) row).operand(i)
                    : query;
        }
        return query;
    }
}
