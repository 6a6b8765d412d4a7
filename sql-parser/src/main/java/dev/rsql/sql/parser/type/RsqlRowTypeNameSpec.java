package dev.rsql.sql.parser.type;

import java.util.List;

import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Flink's {@code ROW<name type [NOT NULL], ...>} (also written {@code ROW(...)}): fields are
 * nullable unless declared NOT NULL, whereas Calcite's ROW fields default to NOT NULL. Every
 * field type therefore carries an explicit nullability, and unparse writes the Flink form.
 */
public final class RsqlRowTypeNameSpec extends SqlRowTypeNameSpec {

  public RsqlRowTypeNameSpec(SqlParserPos pos, List<SqlIdentifier> fieldNames,
      List<SqlDataTypeSpec> fieldTypes) {
    super(pos, fieldNames, fieldTypes);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ROW");
    final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.FUN_CALL, "<", ">");
    for (int i = 0; i < getArity(); i++) {
      writer.sep(",", false);
      getFieldNames().get(i).unparse(writer, 0, 0);
      final SqlDataTypeSpec type = getFieldTypes().get(i);
      type.unparse(writer, leftPrec, rightPrec);
      if (Boolean.FALSE.equals(type.getNullable())) {
        writer.keyword("NOT NULL");
      }
    }
    writer.endList(frame);
  }
}
