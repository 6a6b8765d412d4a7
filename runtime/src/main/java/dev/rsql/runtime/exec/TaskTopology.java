package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.graph.CalcNode;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SinkNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.graph.UnionNode;
import dev.rsql.runtime.operator.CalcOperator;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.operator.SinkOperator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The operators of one task: an instance of every graph node reachable from the task's source, wired as the
 * graph says (fan-out to several consumers, unions merged by wiring). Owned by the task.
 */
final class TaskTopology {

    private final Output head;
    private final List<Operator> operators;          // upstream first
    private final List<SinkOperator> sinkOperators;

    private TaskTopology(Output head, List<Operator> operators, List<SinkOperator> sinkOperators) {
        this.head = head;
        this.operators = operators;
        this.sinkOperators = sinkOperators;
    }

    static TaskTopology build(JobGraph graph, SourceNode source, Map<String, Sink> sinks,
                              SinkWriterContext writerContext) throws Exception {
        Builder b = new Builder(graph, sinks, writerContext);
        Output head = b.outputOf(source);
        List<Operator> ordered = new ArrayList<>();
        List<SinkOperator> sinkOps = new ArrayList<>();
        for (GraphNode n : graph.nodes()) {
            Operator op = b.operators.get(n.id());
            if (op != null) {
                ordered.add(op);
                if (op instanceof SinkOperator) {
                    sinkOps.add((SinkOperator) op);
                }
            }
        }
        return new TaskTopology(head, List.copyOf(ordered), List.copyOf(sinkOps));
    }

    /** Where the rows read from the shard go. */
    Output head() {
        return head;
    }

    List<Operator> operators() {
        return operators;
    }

    List<SinkOperator> sinkOperators() {
        return sinkOperators;
    }

    private static final class Builder {
        private final JobGraph graph;
        private final Map<String, Sink> sinks;
        private final SinkWriterContext writerContext;
        private final Map<String, Operator> operators = new HashMap<>();
        private final Map<String, Output> outputs = new HashMap<>();

        Builder(JobGraph graph, Map<String, Sink> sinks, SinkWriterContext writerContext) {
            this.graph = graph;
            this.sinks = sinks;
            this.writerContext = writerContext;
        }

        /** The output a node's operator emits to: the inputs of all its consumers. */
        Output outputOf(GraphNode node) throws Exception {
            Output cached = outputs.get(node.id());
            if (cached != null) {
                return cached;
            }
            List<Output> targets = new ArrayList<>();
            for (GraphNode consumer : graph.downstreamOf(node)) {
                targets.add(inputOf(consumer));
            }
            Output out = targets.isEmpty() ? Output.DISCARD : Output.broadcast(targets);
            outputs.put(node.id(), out);
            return out;
        }

        /** Where rows sent to a node go: its operator, or straight through for a union. */
        private Output inputOf(GraphNode node) throws Exception {
            if (node instanceof UnionNode) {
                return outputOf(node);
            }
            Operator op = operators.get(node.id());
            if (op == null) {
                op = create(node);
                operators.put(node.id(), op);
            }
            return op::process;
        }

        private Operator create(GraphNode node) throws Exception {
            if (node instanceof CalcNode) {
                return new CalcOperator(((CalcNode) node).newFunction(), outputOf(node));
            }
            if (node instanceof SinkNode) {
                SinkNode sink = (SinkNode) node;
                return new SinkOperator(sink.table().name(), sinks.get(sink.id()).createWriter(writerContext));
            }
            throw new IllegalStateException("no operator for graph node " + node);
        }
    }
}
