package dev.rsql.sql.parser.type;

import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Flink's {@code ARRAY<T [NOT NULL]>} and {@code MULTISET<T [NOT NULL]>}. Calcite's spec
 * already knows the element nullability but writes the postfix form {@code T ARRAY}, which
 * cannot say NOT NULL; this one writes the Flink form.
 */
public final class RsqlCollectionTypeNameSpec extends SqlCollectionTypeNameSpec {

  private final boolean elementNullable;

  public RsqlCollectionTypeNameSpec(SqlTypeNameSpec elementTypeName, boolean elementNullable,
      SqlTypeName collectionTypeName, SqlParserPos pos) {
    super(elementTypeName, elementNullable, collectionTypeName, pos);
    this.elementNullable = elementNullable;
  }

  public boolean isElementNullable() {
    return elementNullable;
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(getTypeName().getSimple());
    final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.FUN_CALL, "<", ">");
    getElementTypeName().unparse(writer, leftPrec, rightPrec);
    if (!elementNullable) {
      writer.keyword("NOT NULL");
    }
    writer.endList(frame);
  }
}
