package dev.rsql.planner.calcite;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.functions.StreamingFunctions;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Brings window syntax to one form before validation. Flink's {@code SESSION(TABLE t PARTITION BY k, ...)} becomes
 * Calcite's {@code SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k), gap)}; Blink's group windows become window table
 * functions, so both forms plan the same way:
 * <pre>
 * SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE), COUNT(*) FROM t WHERE c GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE), k
 * SELECT k, window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) AS t WHERE c
 *   GROUP BY window_start, window_end, k
 * </pre>
 * {@code *_START}, {@code *_END} and {@code *_ROWTIME}/{@code *_PROCTIME} become {@code window_start},
 * {@code window_end} and {@code window_time}. Works in place on a fresh parse tree.
 */
public final class WindowSyntaxRewriter {

    private static final Map<String, SqlOperator> WINDOWS = Map.of(
            "TUMBLE", StreamingFunctions.TUMBLE,
            "HOP", StreamingFunctions.HOP,
            "SESSION", StreamingFunctions.SESSION);

    private WindowSyntaxRewriter() {
    }

    /** Rewrites every SELECT in the tree that groups by a window, and every partitioned SESSION. */
    public static SqlNode rewrite(SqlNode node) {
        visit(node);
        return node;
    }

    private static void visit(SqlNode node) {
        if (node instanceof SqlNodeList) {
            for (SqlNode n : (SqlNodeList) node) {
                visit(n);
            }
        } else if (node instanceof SqlCall) {
            SqlCall call = (SqlCall) node;
            for (int i = 0; i < call.operandCount(); i++) {
                SqlNode operand = call.operand(i);
                if (isPartitionedSession(operand)) {
                    call.setOperand(i, partitionedSession((SqlCall) operand));
                } else if (operand != null) {
                    visit(operand);
                }
            }
            if (node instanceof SqlSelect) {
                rewriteSelect((SqlSelect) node);
            }
        }
    }

    /** The operator's name; the parser names the group window functions $TUMBLE, $HOP and $SESSION. */
    private static String name(SqlNode node) {
        if (!(node instanceof SqlCall)) {
            return "";
        }
        String name = ((SqlCall) node).getOperator().getName().toUpperCase(Locale.ROOT);
        return name.startsWith("$") ? name.substring(1) : name;
    }

    private static void rewriteSelect(SqlSelect select) {
        SqlNodeList groupBy = select.getGroup();
        if (groupBy == null) {
            return;
        }
        int index = -1;
        for (int i = 0; i < groupBy.size(); i++) {
            if (WINDOWS.containsKey(name(groupBy.get(i)))) {
                if (index >= 0) {
                    throw new PlanningException(groupBy.get(i).getParserPosition(), "GROUP BY may have one window only");
                }
                index = i;
            }
        }
        if (index < 0) {
            return;
        }
        SqlCall window = (SqlCall) groupBy.get(index);
        SqlParserPos pos = window.getParserPosition();
        if (window.operandCount() < 2 || !(window.operand(0) instanceof SqlIdentifier)) {
            throw new PlanningException(pos, name(window) + " needs a time column and interval(s)");
        }
        SqlIdentifier timeColumn = (SqlIdentifier) window.operand(0);
        List<SqlNode> operands = new ArrayList<>();
        String alias = null;
        SqlNode from = select.getFrom();
        SqlNode table = from;
        if (from != null && from.getKind() == SqlKind.AS) {
            table = ((SqlCall) from).operand(0);
            alias = ((SqlIdentifier) ((SqlCall) from).operand(1)).getSimple();
        }
        if (table instanceof SqlIdentifier) {
            operands.add(SqlStdOperatorTable.EXPLICIT_TABLE.createCall(pos, table));
            if (alias == null) {
                alias = ((SqlIdentifier) table).names.get(((SqlIdentifier) table).names.size() - 1);
            }
        } else if (table != null && table.getKind().belongsTo(SqlKind.QUERY)) {
            operands.add(table);
        } else {
            throw new PlanningException(pos, "a GROUP BY " + name(window) + " window needs one table, view or "
                    + "subquery in FROM; over a join, use the window table function TABLE(" + name(window) + "(...))");
        }
        operands.add(SqlStdOperatorTable.DESCRIPTOR.createCall(pos,
                new SqlIdentifier(timeColumn.names.get(timeColumn.names.size() - 1), timeColumn.getParserPosition())));
        operands.addAll(window.getOperandList().subList(1, window.operandCount()));
        SqlNode tvf = SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos,
                WINDOWS.get(name(window)).createCall(pos, operands));
        select.setFrom(alias == null ? tvf
                : SqlStdOperatorTable.AS.createCall(pos, tvf, new SqlIdentifier(alias, pos)));

        boolean[] usesTime = new boolean[1];
        select.setSelectList((SqlNodeList) replaceAuxiliary(select.getSelectList(), usesTime));
        if (select.getHaving() != null) {
            select.setHaving(replaceAuxiliary(select.getHaving(), usesTime));
        }
        if (select.getOrderList() != null) {
            select.setOrderBy((SqlNodeList) replaceAuxiliary(select.getOrderList(), usesTime));
        }
        List<SqlNode> keys = new ArrayList<>(groupBy.getList());
        keys.remove(index);
        keys.add(index, new SqlIdentifier("window_start", pos));
        keys.add(index + 1, new SqlIdentifier("window_end", pos));
        if (usesTime[0]) {
            keys.add(index + 2, new SqlIdentifier("window_time", pos));
        }
        select.setGroupBy(new SqlNodeList(keys, groupBy.getParserPosition()));
    }

    private static boolean isPartitionedSession(SqlNode node) {
        return name(node).equals("SESSION") && ((SqlCall) node).operandCount() == 3
                && ((SqlCall) node).operand(0).getKind() == SqlKind.SET_SEMANTICS_TABLE;
    }

    /** SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), gap) → SESSION(TABLE t, DESCRIPTOR(ts), DESCRIPTOR(k), gap). */
    private static SqlNode partitionedSession(SqlCall session) {
        SqlCall partitioned = session.operand(0);
        SqlNodeList keys = partitioned.operand(1);
        SqlNode table = partitioned.operand(0);
        visit(table);
        return StreamingFunctions.SESSION.createCall(session.getParserPosition(), table, session.operand(1),
                SqlStdOperatorTable.DESCRIPTOR.createCall(keys.getParserPosition(), keys.getList()),
                session.operand(2));
    }

    /** Replaces TUMBLE_START(...) etc. by the window columns; notes whether window_time is used. */
    private static SqlNode replaceAuxiliary(SqlNode node, boolean[] usesTime) {
        if (node instanceof SqlNodeList) {
            SqlNodeList list = (SqlNodeList) node;
            for (int i = 0; i < list.size(); i++) {
                list.set(i, replaceAuxiliary(list.get(i), usesTime));
            }
            return list;
        }
        if (!(node instanceof SqlCall)) {
            return node;
        }
        String n = name(node);
        int underscore = n.indexOf('_');
        if (underscore > 0 && WINDOWS.containsKey(n.substring(0, underscore))) {
            switch (n.substring(underscore + 1)) {
                case "START":
                    return new SqlIdentifier("window_start", node.getParserPosition());
                case "END":
                    return new SqlIdentifier("window_end", node.getParserPosition());
                case "ROWTIME":
                case "PROCTIME":
                    usesTime[0] = true;
                    return new SqlIdentifier("window_time", node.getParserPosition());
                default:
                    break;
            }
        }
        if (node instanceof SqlBasicCall) {
            SqlBasicCall call = (SqlBasicCall) node;
            for (int i = 0; i < call.operandCount(); i++) {
                if (call.operand(i) != null) {
                    call.setOperand(i, replaceAuxiliary(call.operand(i), usesTime));
                }
            }
        }
        return node;
    }
}
