package dev.rsql.runtime.exec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * How a restored checkpoint fits the job about to run, by their {@link StateIdentity identities}. A source table whose
 * positions belong to another source (another topic, another path) does not get them: it starts from its startup
 * mode. State is only restored into the operator that wrote it (it is named after the node id); when a statement's
 * stateful operator changed, the statement would silently start its aggregates from nothing while its sources resume
 * mid-stream, so the job refuses to start, naming the statement and how to start from scratch. State of a statement
 * that is gone is dropped, and a new statement starts with empty state; both are logged.
 */
final class CheckpointMatch {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointMatch.class);

    private CheckpointMatch() {
    }

    /**
     * Checks checkpoint {@code then} against the job's identity {@code now}; returns the source tables whose positions
     * are not to be applied, or throws {@link StateConflictException}.
     */
    static Set<String> check(String job, CompletedCheckpoint restored, StateIdentity now) {
        StateIdentity then = restored.identity();
        if (then == null) {
            return Set.of();    // written before checkpoints recorded identities: nothing to compare
        }
        List<String> conflicts = new ArrayList<>();
        for (Map.Entry<String, StateIdentity.Operator> e : then.operators().entrySet()) {
            StateIdentity.Operator current = now.operators().get(e.getKey());
            if (current != null && !current.digest().equals(e.getValue().digest())) {
                conflicts.add(statements(current.sinks()) + " (operator " + e.getKey() + " changed its definition)");
            }
        }
        for (Map.Entry<String, StateIdentity.Operator> e : now.operators().entrySet()) {
            if (then.operators().containsKey(e.getKey())) {
                continue;
            }
            List<String> replaced = then.operators().entrySet().stream()
                    .filter(old -> !now.operators().containsKey(old.getKey())
                            && !Collections.disjoint(old.getValue().sinks(), e.getValue().sinks()))
                    .map(Map.Entry::getKey).collect(Collectors.toList());
            if (!replaced.isEmpty()) {
                conflicts.add(statements(e.getValue().sinks()) + " (operator " + String.join(", ", replaced)
                        + " is now " + e.getKey() + ")");
            } else {
                LOG.info("job={} operator {} of {} is new: it starts with empty state", job, e.getKey(),
                        statements(e.getValue().sinks()));
            }
        }
        if (!conflicts.isEmpty()) {
            throw new StateConflictException("job " + job + " cannot resume from checkpoint " + restored.id() + " in "
                    + restored.dir().getParent() + ": the state of " + String.join("; ", conflicts)
                    + " does not fit the script any more; restoring would silently change its results. To start from"
                    + " scratch (state deleted, sources from their startup mode): bin/rsql reset "
                    + job + ", or run it with --from-scratch");
        }
        for (Map.Entry<String, StateIdentity.Operator> e : then.operators().entrySet()) {
            if (!now.operators().containsKey(e.getKey())) {
                LOG.info("job={} state of operator {} ({}) is dropped: the statement is no longer in the script", job,
                        e.getKey(), statements(e.getValue().sinks()));
            }
        }
        Set<String> changedSources = new TreeSet<>();
        now.sources().forEach((table, identity) -> {
            String old = then.sources().get(table);
            if (old != null && !old.equals(identity)) {
                changedSources.add(table);
                LOG.info("job={} table={}: checkpointed positions are of another source ({}; now {}): not applied, it"
                        + " starts from its startup mode", job, table, old, identity);
            }
        });
        return changedSources;
    }

    private static String statements(List<String> sinks) {
        return sinks.stream().map(s -> "INSERT INTO " + s).collect(Collectors.joining(", "));
    }
}
