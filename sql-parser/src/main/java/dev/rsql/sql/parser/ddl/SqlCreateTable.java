package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (elements) [COMMENT 'c']
 * [PARTITIONED BY (cols)] [WITH (options)]} in its Blink and Flink forms.
 *
 * <p>The elements are sorted by kind. A primary key declared on a column is reported by
 * {@link #getPrimaryKey()} like a table-level one, and is written back at table level.
 */
public final class SqlCreateTable extends SqlCreate {

  private static final SqlOperator OPERATOR =
      new DdlOperator("CREATE TABLE", SqlKind.CREATE_TABLE);

  private final SqlIdentifier name;
  private final boolean temporary;
  private final List<SqlTableColumn> columns;
  private final @Nullable SqlWatermark watermark;
  private final @Nullable SqlTableConstraint primaryKey;
  private final List<SqlTableConstraint> uniqueKeys;
  private final List<SqlTableIndex> indexes;
  private final boolean dimensionTable;
  private final @Nullable String comment;
  private final SqlNodeList partitionKeys;
  private final SqlNodeList options;

  private SqlCreateTable(Builder b, SqlParserPos pos) {
    super(OPERATOR, pos, false, b.ifNotExists);
    this.name = b.name;
    this.temporary = b.temporary;
    this.columns = List.copyOf(b.columns);
    this.watermark = b.watermark;
    this.primaryKey = b.primaryKey;
    this.uniqueKeys = List.copyOf(b.uniqueKeys);
    this.indexes = List.copyOf(b.indexes);
    this.dimensionTable = b.dimensionTable;
    this.comment = b.comment;
    this.partitionKeys = b.partitionKeys;
    this.options = b.options;
  }

  public static Builder builder(SqlIdentifier name) {
    return new Builder(name);
  }

  public SqlIdentifier getName() {
    return name;
  }

  public boolean isTemporary() {
    return temporary;
  }

  public boolean isIfNotExists() {
    return ifNotExists;
  }

  public List<SqlTableColumn> getColumns() {
    return columns;
  }

  public @Nullable SqlWatermark getWatermark() {
    return watermark;
  }

  /** The primary key, declared on the table or on a column; null if none. */
  public @Nullable SqlTableConstraint getPrimaryKey() {
    return primaryKey;
  }

  public List<SqlTableConstraint> getUniqueKeys() {
    return uniqueKeys;
  }

  public List<SqlTableIndex> getIndexes() {
    return indexes;
  }

  /** Whether Blink's {@code PERIOD FOR SYSTEM_TIME} marks this as a dimension (lookup) table. */
  public boolean isDimensionTable() {
    return dimensionTable;
  }

  public List<SqlTableOption> getOptions() {
    final List<SqlTableOption> list = new ArrayList<>();
    options.forEach(o -> list.add((SqlTableOption) o));
    return List.copyOf(list);
  }

  public @Nullable String getComment() {
    return comment;
  }

  public List<SqlIdentifier> getPartitionKeys() {
    final List<SqlIdentifier> list = new ArrayList<>();
    partitionKeys.forEach(k -> list.add((SqlIdentifier) k));
    return List.copyOf(list);
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, new SqlNodeList(elements(), SqlParserPos.ZERO),
        partitionKeys, options);
  }

  /** Columns, watermark, keys, indexes: the order in which they are written back. */
  private List<SqlNode> elements() {
    final List<SqlNode> elements = new ArrayList<>(columns);
    if (watermark != null) {
      elements.add(watermark);
    }
    if (primaryKey != null) {
      elements.add(primaryKey);
    }
    elements.addAll(uniqueKeys);
    elements.addAll(indexes);
    return elements;
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE");
    if (temporary) {
      writer.keyword("TEMPORARY");
    }
    writer.keyword("TABLE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    final SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlNode element : elements()) {
      writer.sep(",");
      element.unparse(writer, 0, 0);
    }
    if (dimensionTable) {
      writer.sep(",");
      writer.keyword("PERIOD FOR SYSTEM_TIME");
    }
    writer.endList(frame);
    Unparsing.comment(writer, comment);
    if (!partitionKeys.isEmpty()) {
      writer.keyword("PARTITIONED BY");
      Unparsing.parenthesizedList(writer, partitionKeys.getList());
    }
    if (!options.isEmpty()) {
      writer.keyword("WITH");
      Unparsing.parenthesizedList(writer, options.getList());
    }
  }

  /** Collects the parts of a CREATE TABLE as the parser meets them. */
  public static final class Builder {
    private final SqlIdentifier name;
    private boolean temporary;
    private boolean ifNotExists;
    private final List<SqlTableColumn> columns = new ArrayList<>();
    private @Nullable SqlWatermark watermark;
    private @Nullable SqlTableConstraint primaryKey;
    private final List<SqlTableConstraint> uniqueKeys = new ArrayList<>();
    private final List<SqlTableIndex> indexes = new ArrayList<>();
    private boolean dimensionTable;
    private @Nullable String comment;
    private SqlNodeList partitionKeys = SqlNodeList.EMPTY;
    private SqlNodeList options = SqlNodeList.EMPTY;

    private Builder(SqlIdentifier name) {
      this.name = requireNonNull(name, "name");
    }

    public Builder temporary(boolean temporary) {
      this.temporary = temporary;
      return this;
    }

    public Builder ifNotExists(boolean ifNotExists) {
      this.ifNotExists = ifNotExists;
      return this;
    }

    public Builder column(SqlTableColumn column) {
      columns.add(requireNonNull(column, "column"));
      return this;
    }

    public boolean hasWatermark() {
      return watermark != null;
    }

    public Builder watermark(SqlWatermark watermark) {
      if (this.watermark != null) {
        throw new IllegalStateException("table already has a watermark");
      }
      this.watermark = requireNonNull(watermark, "watermark");
      return this;
    }

    public boolean hasPrimaryKey() {
      return primaryKey != null;
    }

    /** Adds a key: the primary key (at most one) or a unique key. */
    public Builder constraint(SqlTableConstraint constraint) {
      if (constraint.isUnique()) {
        uniqueKeys.add(constraint);
      } else if (primaryKey != null) {
        throw new IllegalStateException("table already has a primary key");
      } else {
        primaryKey = constraint;
      }
      return this;
    }

    public Builder index(SqlTableIndex index) {
      indexes.add(requireNonNull(index, "index"));
      return this;
    }

    public Builder dimensionTable() {
      this.dimensionTable = true;
      return this;
    }

    public Builder comment(@Nullable String comment) {
      this.comment = comment;
      return this;
    }

    public Builder partitionKeys(SqlNodeList partitionKeys) {
      this.partitionKeys = requireNonNull(partitionKeys, "partitionKeys");
      return this;
    }

    public Builder options(SqlNodeList options) {
      this.options = requireNonNull(options, "options");
      return this;
    }

    public SqlCreateTable build(SqlParserPos pos) {
      return new SqlCreateTable(this, pos);
    }
  }
}
