package dev.rsql.planner.functions;

import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.validate.SqlNameMatcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The script's functions over the engine's built-ins over Calcite's standard operators. A function the script creates
 * hides a built-in of the same name; an engine built-in hides a Calcite function of the same name (for function-call
 * syntax; {@code PI} without parentheses still finds Calcite's).
 */
final class LayeredOperatorTable implements SqlOperatorTable {

    private final SqlOperatorTable user;
    private final SqlOperatorTable engine;
    private final SqlOperatorTable standard;

    LayeredOperatorTable(SqlOperatorTable user, SqlOperatorTable engine, SqlOperatorTable standard) {
        this.user = user;
        this.engine = engine;
        this.standard = standard;
    }

    @Override
    public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax,
                                        List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
        List<SqlOperator> found = new ArrayList<>();
        user.lookupOperatorOverloads(opName, category, syntax, found, nameMatcher);
        if (!found.isEmpty() && syntax.family == SqlSyntax.FUNCTION) {
            operatorList.addAll(found);
            return;
        }
        List<SqlOperator> builtins = new ArrayList<>();
        engine.lookupOperatorOverloads(opName, category, syntax, builtins, nameMatcher);
        List<SqlOperator> std = new ArrayList<>();
        standard.lookupOperatorOverloads(opName, category, syntax, std, nameMatcher);
        if (syntax == SqlSyntax.FUNCTION && !builtins.isEmpty()) {
            Set<String> names = builtins.stream().map(o -> o.getName().toUpperCase(Locale.ROOT))
                    .collect(Collectors.toSet());
            std.removeIf(o -> o.getSyntax() == SqlSyntax.FUNCTION && names.contains(o.getName().toUpperCase(Locale.ROOT)));
        }
        operatorList.addAll(found);
        operatorList.addAll(builtins);
        operatorList.addAll(std);
    }

    @Override
    public List<SqlOperator> getOperatorList() {
        List<SqlOperator> all = new ArrayList<>(user.getOperatorList());
        all.addAll(engine.getOperatorList());
        all.addAll(standard.getOperatorList());
        return all;
    }
}
