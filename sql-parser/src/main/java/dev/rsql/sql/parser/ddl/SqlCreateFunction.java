package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code CREATE [OR REPLACE] [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] name AS 'class'
 * [LANGUAGE JAVA|SCALA|PYTHON]}; Blink writes only {@code CREATE FUNCTION name AS 'class'}.
 */
public final class SqlCreateFunction extends SqlCreate {

  private static final SqlOperator OPERATOR =
      new DdlOperator("CREATE FUNCTION", SqlKind.CREATE_FUNCTION);

  private final SqlIdentifier name;
  private final String className;
  private final @Nullable String language;
  private final boolean temporary;
  private final boolean systemFunction;

  public SqlCreateFunction(SqlParserPos pos, SqlIdentifier name, String className,
      @Nullable String language, boolean replace, boolean temporary, boolean systemFunction,
      boolean ifNotExists) {
    super(OPERATOR, pos, replace, ifNotExists);
    if (systemFunction && !temporary) {
      throw new IllegalArgumentException("a SYSTEM function is always TEMPORARY");
    }
    this.name = requireNonNull(name, "name");
    this.className = requireNonNull(className, "className");
    this.language = language;
    this.temporary = temporary;
    this.systemFunction = systemFunction;
  }

  public SqlIdentifier getName() {
    return name;
  }

  public String getClassName() {
    return className;
  }

  /** {@code JAVA}, {@code SCALA} or {@code PYTHON} (upper case), or null if not written. */
  public @Nullable String getLanguage() {
    return language;
  }

  public boolean isTemporary() {
    return temporary;
  }

  public boolean isSystemFunction() {
    return systemFunction;
  }

  public boolean isIfNotExists() {
    return ifNotExists;
  }

  public boolean isReplace() {
    return getReplace();
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(name);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE");
    if (getReplace()) {
      writer.keyword("OR REPLACE");
    }
    if (temporary) {
      writer.keyword("TEMPORARY");
    }
    if (systemFunction) {
      writer.keyword("SYSTEM");
    }
    writer.keyword("FUNCTION");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    writer.keyword("AS");
    Unparsing.stringLiteral(writer, className);
    if (language != null) {
      writer.keyword("LANGUAGE");
      writer.keyword(language);
    }
  }
}
