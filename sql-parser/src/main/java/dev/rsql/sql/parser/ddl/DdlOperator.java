package dev.rsql.sql.parser.ddl;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Operator of the DDL nodes. Their operands do not hold every attribute (flags, comments), so
 * a node cannot be rebuilt from them: copying shuttles must copy the parts they need (queries,
 * expressions) instead. Failing here beats the plain SqlBasicCall the base class would build.
 */
final class DdlOperator extends SqlSpecialOperator {

  DdlOperator(String name, SqlKind kind) {
    super(name, kind);
  }

  @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier, SqlParserPos pos,
      @Nullable SqlNode... operands) {
    throw new UnsupportedOperationException(getName() + " nodes cannot be rebuilt from operands");
  }
}
