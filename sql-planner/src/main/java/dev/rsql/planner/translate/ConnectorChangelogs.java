package dev.rsql.planner.translate;

import dev.rsql.planner.physical.TableChangelogs;
import dev.rsql.runtime.connector.ConnectorRegistry;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.table.TableDescriptor;

/**
 * Which tables are read as changelogs and which, without a primary key, can be written one: asks the table's
 * connector (which may ask its format). A connector that is not installed reads inserts and writes anything here; the
 * connector check reports it.
 */
public final class ConnectorChangelogs implements TableChangelogs {

    private final ConnectorRegistry connectors;
    private final FormatRegistry formats;

    public ConnectorChangelogs(ClassLoader classLoader) {
        this.connectors = new ConnectorRegistry(classLoader);
        this.formats = new FormatRegistry(classLoader);
    }

    @Override
    public boolean sourceReadsChangelog(TableDescriptor table) {
        return connectors.contains(table.connector())
                && connectors.get(table.connector()).sourceReadsChangelog(table.options(), formats);
    }

    @Override
    public boolean sinkWritesChangelog(TableDescriptor table) {
        return !connectors.contains(table.connector())
                || connectors.get(table.connector()).sinkWritesChangelog(table.options(), formats);
    }
}
