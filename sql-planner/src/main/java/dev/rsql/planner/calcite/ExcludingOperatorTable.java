package dev.rsql.planner.calcite;

import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.validate.SqlNameMatcher;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** An operator table without some names, which another table defines differently. */
final class ExcludingOperatorTable implements SqlOperatorTable {

    private final SqlOperatorTable delegate;
    private final Set<String> excluded;

    ExcludingOperatorTable(SqlOperatorTable delegate, List<String> excludedNames) {
        this.delegate = delegate;
        this.excluded = excludedNames.stream().map(n -> n.toUpperCase(Locale.ROOT)).collect(Collectors.toSet());
    }

    @Override
    public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax,
                                        List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
        if (opName.isSimple() && excluded.contains(opName.getSimple().toUpperCase(Locale.ROOT))) {
            return;
        }
        delegate.lookupOperatorOverloads(opName, category, syntax, operatorList, nameMatcher);
    }

    @Override
    public List<SqlOperator> getOperatorList() {
        return delegate.getOperatorList().stream()
                .filter(op -> !excluded.contains(op.getName().toUpperCase(Locale.ROOT)))
                .collect(Collectors.toList());
    }
}
