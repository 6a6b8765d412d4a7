package dev.rsql.planner.physical;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** Where in the script the construct a plan node comes from stands, for errors about that node. */
@FunctionalInterface
public interface NodePositions {

    /** The position of {@code node}'s construct, or null when only the statement's is known. */
    SqlParserPos of(RelNode node);

    /** The position of {@code node}'s construct, else the statement's. */
    default SqlParserPos of(RelNode node, SqlParserPos statement) {
        SqlParserPos pos = of(node);
        return pos == null ? statement : pos;
    }

    NodePositions NONE = node -> null;
}
