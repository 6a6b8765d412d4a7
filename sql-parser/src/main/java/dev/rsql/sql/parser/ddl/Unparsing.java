package dev.rsql.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Pieces of SQL text several DDL nodes write. */
final class Unparsing {

  private Unparsing() {
  }

  static void stringLiteral(SqlWriter writer, String value) {
    SqlLiteral.createCharString(value, SqlParserPos.ZERO).unparse(writer, 0, 0);
  }

  /** {@code COMMENT 'text'}, or nothing when there is no comment. */
  static void comment(SqlWriter writer, @Nullable String comment) {
    if (comment != null) {
      writer.keyword("COMMENT");
      stringLiteral(writer, comment);
    }
  }

  /** {@code (a, b, c)}. */
  static void parenthesizedList(SqlWriter writer, List<? extends SqlNode> nodes) {
    final SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlNode node : nodes) {
      writer.sep(",");
      node.unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }

  /** The type, then {@code NOT NULL} if the spec says so (SqlDataTypeSpec does not write it). */
  static void columnType(SqlWriter writer, SqlDataTypeSpec type) {
    type.unparse(writer, 0, 0);
    if (Boolean.FALSE.equals(type.getNullable())) {
      writer.keyword("NOT NULL");
    }
  }
}
