package dev.rsql.planner.functions;

import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.validate.SqlNameMatcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The functions a script creates with CREATE FUNCTION, by case-insensitive name: the operator table the validator
 * consults first.
 */
public final class ScriptFunctions implements SqlOperatorTable {

    private final Map<String, SqlOperator> functions = new LinkedHashMap<>();

    private static String key(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    /** Adds a function, replacing one of the same name. */
    public void register(String name, SqlOperator operator) {
        functions.put(key(name), operator);
    }

    public SqlOperator get(String name) {
        return functions.get(key(name));
    }

    @Override
    public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax,
                                        List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
        if (!opName.isSimple() || syntax.family != SqlSyntax.FUNCTION) {
            return;
        }
        SqlOperator op = functions.get(key(opName.getSimple()));
        if (op != null) {
            operatorList.add(op);
        }
    }

    @Override
    public List<SqlOperator> getOperatorList() {
        return new ArrayList<>(functions.values());
    }
}
