package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * One {@code key = value} of a WITH clause (also used by {@code SET}).
 *
 * <p>The key is an identifier (Blink: {@code type}, {@code `group.id`}, also reserved words such
 * as {@code partition}) or a character literal (Flink: {@code 'connector'}). The value is a
 * character, numeric or boolean literal or a bare identifier ({@code SASL_PLAINTEXT}).
 */
public final class SqlTableOption extends SqlCall {

  private static final SqlOperator OPERATOR = new DdlOperator("OPTION", SqlKind.OTHER);

  private final SqlNode key;
  private final SqlNode value;

  public SqlTableOption(SqlParserPos pos, SqlNode key, SqlNode value) {
    super(pos);
    this.key = requireNonNull(key, "key");
    this.value = requireNonNull(value, "value");
  }

  public SqlNode getKey() {
    return key;
  }

  public SqlNode getValue() {
    return value;
  }

  /** The key as written, without quotes, e.g. {@code group.id}; case is not changed. */
  public String getKeyString() {
    return text(key);
  }

  /**
   * The value as text: a character literal unquoted, a number as written, a boolean as
   * {@code true}/{@code false}, an identifier as its (dotted) name.
   */
  public String getValueString() {
    return text(value);
  }

  /** The text of an option key or value node. */
  static String text(SqlNode node) {
    if (node instanceof SqlIdentifier) {
      return String.join(".", ((SqlIdentifier) node).names);
    }
    final SqlLiteral literal = (SqlLiteral) node;
    switch (literal.getTypeName()) {
    case BOOLEAN:
      return String.valueOf(literal.booleanValue());
    case CHAR:
      return literal.getValueAs(String.class);
    default:
      return literal.toValue();
    }
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(key, value);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    key.unparse(writer, 0, 0);
    writer.keyword("=");
    value.unparse(writer, 0, 0);
  }
}
