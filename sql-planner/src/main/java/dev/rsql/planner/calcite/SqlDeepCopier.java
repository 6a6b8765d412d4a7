package dev.rsql.planner.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;

/**
 * Deep copy of a parse tree. Validation rewrites nodes in place, so each expansion of a view or computed column
 * validates its own copy; positions are kept, so errors still point into the script.
 */
public final class SqlDeepCopier extends SqlShuttle {

    private static final SqlDeepCopier INSTANCE = new SqlDeepCopier();

    private SqlDeepCopier() {
    }

    @SuppressWarnings("unchecked")
    public static <T extends SqlNode> T copy(T node) {
        return node == null ? null : (T) node.accept(INSTANCE);
    }

    @Override
    public SqlNode visit(SqlCall call) {
        CallCopyingArgHandler handler = new CallCopyingArgHandler(call, true);
        call.getOperator().acceptCall(this, call, false, handler);
        return handler.result();
    }

    @Override
    public SqlNode visit(SqlNodeList list) {
        List<SqlNode> copied = new ArrayList<>(list.size());
        for (SqlNode n : list) {
            copied.add(n == null ? null : n.accept(this));
        }
        return new SqlNodeList(copied, list.getParserPosition());
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
        return id.clone(id.getParserPosition());
    }

    @Override
    public SqlNode visit(SqlLiteral literal) {
        return literal.clone(literal.getParserPosition());
    }
}
