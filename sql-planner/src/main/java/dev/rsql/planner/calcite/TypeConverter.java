package dev.rsql.planner.calcite;

import dev.rsql.planner.PlanningException;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;

/** Converts Calcite types to the runtime's types, and normalises declared types to what the engine stores. */
public final class TypeConverter {

    private TypeConverter() {
    }

    /**
     * The type as the engine stores it: FLOAT is the 4-byte type (Calcite's REAL) as in Blink and Flink; TIMESTAMP and
     * TIME precisions above milliseconds are reduced to 3; ROW fields are reachable as {@code column.field}.
     */
    public static RelDataType normalize(RelDataType type, RelDataTypeFactory f) {
        RelDataType result;
        switch (type.getSqlTypeName()) {
            case FLOAT:
                result = f.createSqlType(SqlTypeName.REAL);
                break;
            case TIMESTAMP:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
            case TIME:
                result = type.getPrecision() > RsqlTypeSystem.TIMESTAMP_PRECISION
                        ? f.createSqlType(type.getSqlTypeName(), RsqlTypeSystem.TIMESTAMP_PRECISION) : type;
                break;
            case ARRAY:
                result = f.createArrayType(normalize(type.getComponentType(), f), -1);
                break;
            case MULTISET:
                result = f.createMultisetType(normalize(type.getComponentType(), f), -1);
                break;
            case MAP:
                result = f.createMapType(normalize(type.getKeyType(), f), normalize(type.getValueType(), f));
                break;
            case ROW:
                List<RelDataType> types = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (RelDataTypeField field : type.getFieldList()) {
                    names.add(field.getName());
                    types.add(normalize(field.getType(), f));
                }
                // Like Flink: a ROW column's fields can be named without the table alias (col.field).
                result = f.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
                break;
            default:
                result = type;
        }
        return f.createTypeWithNullability(result, type.isNullable());
    }

    public static RowType toRowType(RelDataType rowType) {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (RelDataTypeField f : rowType.getFieldList()) {
            names.add(f.getName());
            types.add(toDataType(f.getType()));
        }
        return new RowType(names, types);
    }

    public static DataType toDataType(RelDataType type) {
        DataType t = toDataTypeIgnoringNullability(type);
        return type.isNullable() ? t : t.notNull();
    }

    private static DataType toDataTypeIgnoringNullability(RelDataType type) {
        switch (type.getSqlTypeName()) {
            case BOOLEAN:
                return DataType.of(DataType.Kind.BOOLEAN);
            case TINYINT:
                return DataType.of(DataType.Kind.TINYINT);
            case SMALLINT:
                return DataType.of(DataType.Kind.SMALLINT);
            case INTEGER:
                return DataType.of(DataType.Kind.INT);
            case BIGINT:
                return DataType.of(DataType.Kind.BIGINT);
            case REAL:
                return DataType.of(DataType.Kind.FLOAT);
            case FLOAT:
            case DOUBLE:
                return DataType.of(DataType.Kind.DOUBLE);
            case DECIMAL:
                return DataType.decimal(type.getPrecision(), Math.max(0, type.getScale()));
            case CHAR:
                return DataType.withPrecision(DataType.Kind.CHAR, type.getPrecision(), 0);
            case VARCHAR:
                return DataType.varchar(type.getPrecision() < 0 ? DataType.UNBOUNDED : type.getPrecision());
            case BINARY:
                return DataType.withPrecision(DataType.Kind.BINARY, type.getPrecision(), 0);
            case VARBINARY:
                return DataType.withPrecision(DataType.Kind.VARBINARY,
                        type.getPrecision() < 0 ? DataType.UNBOUNDED : type.getPrecision(), 0);
            case DATE:
                return DataType.of(DataType.Kind.DATE);
            case TIME:
                return DataType.withPrecision(DataType.Kind.TIME, type.getPrecision(), 0);
            case TIMESTAMP:
                return DataType.timestamp(Math.min(type.getPrecision(), RsqlTypeSystem.TIMESTAMP_PRECISION));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return DataType.withPrecision(DataType.Kind.TIMESTAMP_LTZ,
                        Math.min(type.getPrecision(), RsqlTypeSystem.TIMESTAMP_PRECISION), 0);
            case ARRAY:
                return DataType.array(toDataType(type.getComponentType()));
            case MULTISET:
                return DataType.multiset(toDataType(type.getComponentType()));
            case MAP:
                return DataType.map(toDataType(type.getKeyType()), toDataType(type.getValueType()));
            case ROW:
                RowType fields = toRowType(type);
                return DataType.row(fields.names(), fields.types());
            case NULL:
                return DataType.string();
            default:
                throw new PlanningException("type " + type.getFullTypeString() + " cannot be stored in a table");
        }
    }
}
