package dev.rsql.planner;

import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A script cannot be planned: unknown table, column or function, a type mismatch, a feature that is not supported.
 * The message starts with the position in the script when one is known ({@code line 4, column 9: ...}).
 */
public class PlanningException extends RuntimeException {

    private final SqlParserPos position;

    public PlanningException(SqlParserPos position, String message) {
        this(position, message, null);
    }

    public PlanningException(SqlParserPos position, String message, Throwable cause) {
        super(prefix(position) + message, cause);
        this.position = position;
    }

    public PlanningException(String message) {
        this(null, message, null);
    }

    private static String prefix(SqlParserPos pos) {
        if (pos == null || pos == SqlParserPos.ZERO || pos.getLineNum() <= 0) {
            return "";
        }
        return "line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ": ";
    }

    /** Where in the script, or null. */
    public SqlParserPos position() {
        return position;
    }
}
