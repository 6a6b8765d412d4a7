package dev.rsql.planner.physical;

import dev.rsql.runtime.table.TableDescriptor;

/** What the changelog inference asks of a table's connector: whether its source and its sink carry changelogs. */
public interface TableChangelogs {

    /** Whether a scan of the table is a changelog (+I, -U, +U, -D) instead of inserts only. */
    boolean sourceReadsChangelog(TableDescriptor table);

    /** Whether the table, when it has no primary key, can be written updates and deletes. */
    boolean sinkWritesChangelog(TableDescriptor table);
}
