package dev.rsql.planner.translate;

import dev.rsql.runtime.connector.ConnectorRegistry;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.table.TableDescriptor;

import java.util.function.Predicate;

/**
 * Which tables without a primary key can be written a changelog: asks the table's connector (which may ask its
 * format). A connector that is not installed answers yes here; the connector check reports it.
 */
public final class ChangelogSinks implements Predicate<TableDescriptor> {

    private final ConnectorRegistry connectors;
    private final FormatRegistry formats;

    public ChangelogSinks(ClassLoader classLoader) {
        this.connectors = new ConnectorRegistry(classLoader);
        this.formats = new FormatRegistry(classLoader);
    }

    @Override
    public boolean test(TableDescriptor table) {
        return !connectors.contains(table.connector())
                || connectors.get(table.connector()).sinkWritesChangelog(table.options(), formats);
    }
}
