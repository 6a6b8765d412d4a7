package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.assertRoundTrip;
import static dev.rsql.sql.parser.Parsing.parseOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import dev.rsql.sql.parser.ddl.SqlCreateTable;
import dev.rsql.sql.parser.ddl.SqlRegularColumn;
import dev.rsql.sql.parser.type.RsqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlMapTypeNameSpec;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TypesTest {

  /** Declares one column of the given type and returns its type spec. */
  private static SqlDataTypeSpec columnType(String type) {
    final SqlCreateTable table = parseOne("CREATE TABLE t (c " + type + ")", SqlCreateTable.class);
    assertRoundTrip(table);
    return ((SqlRegularColumn) table.getColumns().get(0)).getType();
  }

  private static SqlBasicTypeNameSpec basic(String type) {
    return assertInstanceOf(SqlBasicTypeNameSpec.class, columnType(type).getTypeNameSpec());
  }

  static Stream<Arguments> basicTypes() {
    return Stream.of(
        Arguments.of("STRING", SqlTypeName.VARCHAR, Integer.MAX_VALUE),
        Arguments.of("string", SqlTypeName.VARCHAR, Integer.MAX_VALUE),
        Arguments.of("BYTES", SqlTypeName.VARBINARY, Integer.MAX_VALUE),
        Arguments.of("VARCHAR", SqlTypeName.VARCHAR, -1),
        Arguments.of("VARCHAR(20)", SqlTypeName.VARCHAR, 20),
        Arguments.of("VARBINARY", SqlTypeName.VARBINARY, -1),
        Arguments.of("TIMESTAMP", SqlTypeName.TIMESTAMP, -1),
        Arguments.of("TIMESTAMP(3)", SqlTypeName.TIMESTAMP, 3),
        Arguments.of("TIMESTAMP_LTZ", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, -1),
        Arguments.of("TIMESTAMP_LTZ(3)", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3),
        Arguments.of("TIMESTAMP(6) WITH LOCAL TIME ZONE",
            SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6),
        Arguments.of("TIMESTAMP WITH LOCAL TIME ZONE",
            SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, -1),
        Arguments.of("BOOLEAN", SqlTypeName.BOOLEAN, -1),
        Arguments.of("TINYINT", SqlTypeName.TINYINT, -1),
        Arguments.of("SMALLINT", SqlTypeName.SMALLINT, -1),
        Arguments.of("INT", SqlTypeName.INTEGER, -1),
        Arguments.of("BIGINT", SqlTypeName.BIGINT, -1),
        Arguments.of("FLOAT", SqlTypeName.FLOAT, -1),
        Arguments.of("DOUBLE", SqlTypeName.DOUBLE, -1),
        Arguments.of("DECIMAL(10, 2)", SqlTypeName.DECIMAL, 10),
        Arguments.of("DATE", SqlTypeName.DATE, -1),
        Arguments.of("TIME", SqlTypeName.TIME, -1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("basicTypes")
  void basicType(String type, SqlTypeName expected, int precision) {
    final SqlBasicTypeNameSpec spec = basic(type);
    assertEquals(expected, typeName(spec));
    assertEquals(precision, spec.getPrecision());
  }

  @Test
  void nullability() {
    assertEquals(Boolean.TRUE, columnType("INT").getNullable());
    assertEquals(Boolean.TRUE, columnType("INT NULL").getNullable());
    assertEquals(Boolean.FALSE, columnType("INT NOT NULL").getNullable());
    assertEquals(Boolean.FALSE, columnType("STRING NOT NULL").getNullable());
  }

  @Test
  void arrayAndMultiset() {
    final RsqlCollectionTypeNameSpec array =
        assertInstanceOf(RsqlCollectionTypeNameSpec.class, columnType("ARRAY<INT>").getTypeNameSpec());
    assertEquals("ARRAY", array.getTypeName().getSimple());
    assertEquals(SqlTypeName.INTEGER, typeName(array.getElementTypeName()));
    assertTrue(array.isElementNullable());

    final RsqlCollectionTypeNameSpec notNull = (RsqlCollectionTypeNameSpec)
        columnType("ARRAY<STRING NOT NULL>").getTypeNameSpec();
    assertFalse(notNull.isElementNullable());

    final SqlCollectionTypeNameSpec multiset = assertInstanceOf(SqlCollectionTypeNameSpec.class,
        columnType("MULTISET<STRING>").getTypeNameSpec());
    assertEquals("MULTISET", multiset.getTypeName().getSimple());

    final SqlCollectionTypeNameSpec postfix = assertInstanceOf(SqlCollectionTypeNameSpec.class,
        columnType("INT ARRAY").getTypeNameSpec());
    assertEquals("ARRAY", postfix.getTypeName().getSimple());
  }

  @Test
  void map() {
    final SqlMapTypeNameSpec map = assertInstanceOf(SqlMapTypeNameSpec.class,
        columnType("MAP<STRING, BIGINT>").getTypeNameSpec());
    assertEquals(Integer.MAX_VALUE,
        ((SqlBasicTypeNameSpec) map.getKeyType().getTypeNameSpec()).getPrecision());
    assertEquals(SqlTypeName.BIGINT, typeName(map.getValType().getTypeNameSpec()));
  }

  @Test
  void rowInBothSpellingsWithFlinkNullability() {
    for (String type : List.of("ROW<id BIGINT, `dateTime` TIMESTAMP(3) NOT NULL>",
        "ROW(id BIGINT, `dateTime` TIMESTAMP(3) NOT NULL)")) {
      final SqlRowTypeNameSpec row =
          assertInstanceOf(SqlRowTypeNameSpec.class, columnType(type).getTypeNameSpec());
      assertEquals(List.of("id", "dateTime"),
          row.getFieldNames().stream().map(SqlIdentifier::getSimple).toList(), type);
      assertEquals(Boolean.TRUE, row.getFieldTypes().get(0).getNullable(), type);
      assertEquals(Boolean.FALSE, row.getFieldTypes().get(1).getNullable(), type);
    }
  }

  @Test
  void nestedTypes() {
    final SqlTypeNameSpec spec = columnType(
        "ARRAY<MAP<STRING, ROW<a ARRAY<INT>, b MULTISET<BYTES>, c MAP<INT, STRING>>>>")
        .getTypeNameSpec();
    final SqlCollectionTypeNameSpec array = assertInstanceOf(SqlCollectionTypeNameSpec.class, spec);
    final SqlMapTypeNameSpec map =
        assertInstanceOf(SqlMapTypeNameSpec.class, array.getElementTypeName());
    final SqlRowTypeNameSpec row =
        assertInstanceOf(SqlRowTypeNameSpec.class, map.getValType().getTypeNameSpec());
    assertEquals(3, row.getArity());
    assertInstanceOf(SqlCollectionTypeNameSpec.class,
        row.getFieldTypes().get(0).getTypeNameSpec());
  }

  @Test
  void unknownTypeNameIsAUserDefinedType() {
    assertInstanceOf(SqlUserDefinedTypeNameSpec.class, columnType("my_type").getTypeNameSpec());
  }

  @Test
  void typesInCasts() {
    final SqlBasicCall cast =
        (SqlBasicCall) RsqlParser.parseExpression("CAST(a AS STRING)");
    final SqlDataTypeSpec type = (SqlDataTypeSpec) cast.operand(1);
    assertEquals(Integer.MAX_VALUE, ((SqlBasicTypeNameSpec) type.getTypeNameSpec()).getPrecision());

    final SqlBasicCall rowCast =
        (SqlBasicCall) RsqlParser.parseExpression("CAST(a AS ROW<x INT, y ARRAY<STRING>>)");
    assertInstanceOf(SqlRowTypeNameSpec.class,
        ((SqlDataTypeSpec) rowCast.operand(1)).getTypeNameSpec());
  }

  @Test
  void unparsedTypes() {
    final SqlCreateTable table = parseOne("""
        CREATE TABLE t (a STRING, b BYTES, c TIMESTAMP_LTZ(3), d ARRAY<INT NOT NULL>,
          e ROW<x INT, y STRING NOT NULL>, f MAP<STRING, INT>)""", SqlCreateTable.class);

    assertEquals("CREATE TABLE `t` (`a` VARCHAR(2147483647), `b` VARBINARY(2147483647), "
        + "`c` TIMESTAMP(3) WITH LOCAL TIME ZONE, `d` ARRAY< INTEGER NOT NULL >, "
        + "`e` ROW< `x` INTEGER, `y` VARCHAR(2147483647) NOT NULL >, "
        + "`f` MAP< VARCHAR(2147483647), INTEGER >)", assertRoundTrip(table));
  }

  /** SqlBasicTypeNameSpec has no getter for its SqlTypeName; its type name is the enum's name. */
  static SqlTypeName typeName(SqlTypeNameSpec spec) {
    return SqlTypeName.valueOf(spec.getTypeName().getSimple());
  }
}
