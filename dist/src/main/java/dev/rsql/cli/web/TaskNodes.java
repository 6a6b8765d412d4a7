package dev.rsql.cli.web;

import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.graph.ExchangeNode;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SourceNode;

import java.util.HashMap;
import java.util.Map;

/**
 * Which graph node each task of a job starts at, by the part of the task's id before {@code #}: a source task is
 * named after its table, a task after an exchange (a partition, or a shuffle queue) after the exchange's node.
 */
final class TaskNodes {

    private final Map<String, GraphNode> byPrefix = new HashMap<>();

    TaskNodes(JobGraph graph) {
        for (GraphNode n : graph.nodes()) {
            if (n instanceof SourceNode s) {
                byPrefix.put(s.table().name(), n);
            } else if (n instanceof ExchangeNode) {
                byPrefix.put(n.id(), n);
            }
        }
    }

    /** The node the task starts at, or null for a task named otherwise. */
    GraphNode of(String taskId) {
        int hash = taskId.indexOf('#');
        return hash < 0 ? null : byPrefix.get(taskId.substring(0, hash));
    }

    /** The records the job's source tasks read: each record once, where the tasks' records in count it per stage. */
    long recordsRead(JobStatus status) {
        long sum = 0;
        for (TaskStatus t : status.tasks) {
            if (of(t.id) instanceof SourceNode) {
                sum += t.recordsIn;
            }
        }
        return sum;
    }
}
