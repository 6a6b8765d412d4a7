package dev.rsql.runtime.graph;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.text.DisplayWidth;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The operator graph of one job: every INSERT of a script in one DAG. Immutable; built by the planner or by
 * {@link GraphBuilder}.
 */
public final class JobGraph {

    private final String name;
    private final List<GraphNode> nodes;                 // topological order
    private final Map<String, List<GraphNode>> downstream;
    private final Options parameters;

    public JobGraph(String name, List<SinkNode> sinks, Options parameters) {
        this.name = name;
        this.parameters = parameters;
        this.nodes = List.copyOf(topologicalOrder(sinks));
        Map<String, List<GraphNode>> down = new HashMap<>();
        for (GraphNode n : nodes) {
            down.putIfAbsent(n.id(), new ArrayList<>());
            for (GraphNode in : n.inputs()) {
                down.computeIfAbsent(in.id(), k -> new ArrayList<>()).add(n);
            }
        }
        down.replaceAll((k, v) -> List.copyOf(v));
        this.downstream = Collections.unmodifiableMap(down);
        Set<String> ids = new LinkedHashSet<>();
        for (GraphNode n : nodes) {
            if (!ids.add(n.id())) {
                throw new IllegalArgumentException("two graph nodes share the id " + n.id());
            }
        }
    }

    private static List<GraphNode> topologicalOrder(List<SinkNode> sinks) {
        Map<String, GraphNode> visited = new LinkedHashMap<>();
        for (SinkNode s : sinks) {
            visit(s, visited);
        }
        return new ArrayList<>(visited.values());
    }

    private static void visit(GraphNode n, Map<String, GraphNode> visited) {
        GraphNode seen = visited.get(n.id());
        if (seen != null) {
            if (seen != n) {
                throw new IllegalArgumentException("two graph nodes share the id " + n.id());
            }
            return;
        }
        for (GraphNode in : n.inputs()) {
            visit(in, visited);
        }
        visited.put(n.id(), n);
    }

    public String name() {
        return name;
    }

    /** Job parameters: the script's SET values. */
    public Options parameters() {
        return parameters;
    }

    /** All nodes, every node after its inputs. */
    public List<GraphNode> nodes() {
        return nodes;
    }

    public List<SourceNode> sources() {
        return nodes.stream().filter(n -> n instanceof SourceNode).map(n -> (SourceNode) n).collect(Collectors.toList());
    }

    public List<SinkNode> sinks() {
        return nodes.stream().filter(n -> n instanceof SinkNode).map(n -> (SinkNode) n).collect(Collectors.toList());
    }

    /** The nodes that read the output of this node. */
    public List<GraphNode> downstreamOf(GraphNode node) {
        return downstream.getOrDefault(node.id(), List.of());
    }

    /** The graph as EXPLAIN prints it: one line per node, inputs named by id. */
    public String explain() {
        StringBuilder sb = new StringBuilder("Job ").append(name).append('\n');
        int idWidth = nodes.stream().mapToInt(n -> DisplayWidth.of(n.id())).max().orElse(0);
        for (GraphNode n : nodes) {
            sb.append("  ").append(DisplayWidth.padRight(n.id(), idWidth))
                    .append(String.format("  %-6s %s", n.kind(), n.describe()));
            if (n instanceof SourceNode) {
                sb.append(SourceFields.describe(this, (SourceNode) n));
            }
            if (!n.inputs().isEmpty()) {
                sb.append("  <- ").append(n.inputs().stream().map(GraphNode::id).collect(Collectors.joining(", ")));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return explain();
    }
}
