package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A column read from the message's metadata rather than its payload.
 *
 * <p>Flink: {@code name type METADATA [FROM 'key'] [VIRTUAL]}. Blink: {@code name type HEADER},
 * which has no key (the connector derives it from the column name) and is never virtual.
 */
public final class SqlMetadataColumn extends SqlTableColumn {

  private final SqlDataTypeSpec type;
  private final @Nullable String metadataKey;
  private final boolean virtual;
  private final boolean header;

  public SqlMetadataColumn(SqlParserPos pos, SqlIdentifier name, SqlDataTypeSpec type,
      @Nullable String metadataKey, boolean virtual, boolean header, @Nullable String comment) {
    super(pos, name, comment);
    if (header && (metadataKey != null || virtual)) {
      throw new IllegalArgumentException("a HEADER column has no key and is not virtual");
    }
    this.type = requireNonNull(type, "type");
    this.metadataKey = metadataKey;
    this.virtual = virtual;
    this.header = header;
  }

  public SqlDataTypeSpec getType() {
    return type;
  }

  /** The key after {@code FROM}, or null when absent (always null for HEADER). */
  public @Nullable String getMetadataKey() {
    return metadataKey;
  }

  /** Whether the column is read-only ({@code VIRTUAL}): not written by INSERT. */
  public boolean isVirtual() {
    return virtual;
  }

  /** Whether the column was declared in the Blink form {@code name type HEADER}. */
  public boolean isHeader() {
    return header;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(getName(), type);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    getName().unparse(writer, 0, 0);
    Unparsing.columnType(writer, type);
    if (header) {
      writer.keyword("HEADER");
    } else {
      writer.keyword("METADATA");
      if (metadataKey != null) {
        writer.keyword("FROM");
        Unparsing.stringLiteral(writer, metadataKey);
      }
      if (virtual) {
        writer.keyword("VIRTUAL");
      }
    }
    Unparsing.comment(writer, getComment());
  }
}
