package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.exec.exchange.StageOutput;
import dev.rsql.runtime.graph.CalcNode;
import dev.rsql.runtime.graph.CorrelateNode;
import dev.rsql.runtime.graph.ExchangeNode;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.GroupAggregateNode;
import dev.rsql.runtime.graph.GlobalGroupAggregateNode;
import dev.rsql.runtime.graph.LocalGroupAggregateNode;
import dev.rsql.runtime.graph.IntervalJoinNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.DeduplicateNode;
import dev.rsql.runtime.graph.JoinNode;
import dev.rsql.runtime.graph.LookupJoinNode;
import dev.rsql.runtime.graph.OverAggregateNode;
import dev.rsql.runtime.graph.RankNode;
import dev.rsql.runtime.graph.RuleNode;
import dev.rsql.runtime.graph.RuleSetNode;
import dev.rsql.runtime.graph.SemiAntiJoinNode;
import dev.rsql.runtime.graph.SinkNode;
import dev.rsql.runtime.graph.TemporalJoinNode;
import dev.rsql.runtime.graph.UnionNode;
import dev.rsql.runtime.graph.UpsertMaterializeNode;
import dev.rsql.runtime.graph.WatermarkAssignerNode;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.graph.WindowAssignerNode;
import dev.rsql.runtime.graph.WindowRankNode;
import dev.rsql.runtime.graph.WindowJoinNode;
import dev.rsql.runtime.metrics.OperatorMetrics;
import dev.rsql.runtime.metrics.TaskMetrics;
import dev.rsql.runtime.operator.CalcOperator;
import dev.rsql.runtime.operator.CorrelateOperator;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.operator.RuleSetOperator;
import dev.rsql.runtime.operator.SinkOperator;
import dev.rsql.runtime.operator.UpsertMaterializeOperator;
import dev.rsql.runtime.operator.WatermarkAssignerOperator;
import dev.rsql.runtime.operator.WindowAssignerOperator;
import dev.rsql.runtime.operator.aggregate.GroupAggregateOperator;
import dev.rsql.runtime.operator.aggregate.GlobalGroupAggregateOperator;
import dev.rsql.runtime.operator.aggregate.LocalGroupAggregateOperator;
import dev.rsql.runtime.operator.aggregate.MiniBatchGroupAggregateOperator;
import dev.rsql.runtime.operator.aggregate.OverAggregateOperator;
import dev.rsql.runtime.operator.aggregate.SessionWindowAggregateOperator;
import dev.rsql.runtime.operator.aggregate.SlicingWindowAggregateOperator;
import dev.rsql.runtime.operator.aggregate.WindowAggregateOperator;
import dev.rsql.runtime.operator.join.IntervalJoinOperator;
import dev.rsql.runtime.operator.join.JoinOperator;
import dev.rsql.runtime.operator.lookup.LookupJoinOperator;
import dev.rsql.runtime.operator.rank.DeduplicateOperator;
import dev.rsql.runtime.operator.rank.RankOperator;
import dev.rsql.runtime.operator.rank.WindowRankOperator;
import dev.rsql.runtime.operator.join.TemporalJoinOperator;
import dev.rsql.runtime.operator.join.WindowJoinOperator;
import dev.rsql.runtime.operator.join.SemiAntiJoinOperator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The operators of one task: an instance of every graph node reachable from the task's input up to the next exchange
 * (where an {@link ExchangeWriter} hands rows to the next stage) or sink, wired as the graph says (fan-out to several
 * consumers, unions merged by wiring). Owned by the task.
 */
final class TaskTopology {

    /** What building a topology needs from the job. */
    record Resources(JobGraph graph, Map<String, Sink> sinks, StageOutputs stageOutputs,
                     SinkWriterContext writerContext, Runnable taskWakeup, long firstCheckpoint) {
    }

    /** Makes a task's end of an exchange: in-process, or through RocketMQ. */
    interface StageOutputs {
        StageOutput create(ExchangeNode exchange, Runnable taskWakeup, long firstCheckpoint) throws Exception;
    }

    private final Output head;
    private final List<Operator> operators;          // upstream first
    private final List<SinkOperator> sinkOperators;
    private final List<StageOutput> stageOutputs;
    private final WatermarkAssignerOperator watermarkAssigner;
    private final TaskMetrics metrics;

    private TaskTopology(Output head, List<Operator> operators, TaskMetrics metrics) {
        this.head = head;
        this.operators = operators;
        this.metrics = metrics;
        List<SinkOperator> sinks = new ArrayList<>();
        List<StageOutput> outputs = new ArrayList<>();
        WatermarkAssignerOperator assigner = null;
        for (Operator op : operators) {
            if (op instanceof SinkOperator) {
                sinks.add((SinkOperator) op);
            } else if (op instanceof StageOutput) {
                outputs.add((StageOutput) op);
            } else if (op instanceof WatermarkAssignerOperator && assigner == null) {
                assigner = (WatermarkAssignerOperator) op;
            }
        }
        this.sinkOperators = List.copyOf(sinks);
        this.stageOutputs = List.copyOf(outputs);
        this.watermarkAssigner = assigner;
    }

    /** The operators fed by {@code start}: a source node, or an exchange node for a partition task. */
    static TaskTopology build(GraphNode start, Resources resources) throws Exception {
        Builder b = new Builder(resources, start);
        Output head = b.outputOf(start);
        List<Operator> ordered = new ArrayList<>();
        List<OperatorMetrics> metered = new ArrayList<>();
        List<Operator> meteredOperators = new ArrayList<>();   // null for the start node
        for (GraphNode n : resources.graph().nodes()) {
            Operator op = b.operators.get(n.id());
            if (op != null) {
                ordered.add(op);
            }
            OperatorMetrics m = b.metrics.get(n.id());
            if (m != null) {
                metered.add(m);
                meteredOperators.add(op);
            }
        }
        return new TaskTopology(head, List.copyOf(ordered), new TaskMetrics(metered, meteredOperators));
    }

    /** Where the task's input rows go. */
    Output head() {
        return head;
    }

    List<Operator> operators() {
        return operators;
    }

    List<SinkOperator> sinkOperators() {
        return sinkOperators;
    }

    List<StageOutput> stageOutputs() {
        return stageOutputs;
    }

    /** The source's watermark generator, or null. */
    WatermarkAssignerOperator watermarkAssigner() {
        return watermarkAssigner;
    }

    /** The counters of the task's operators, each counting the rows into and out of it. */
    TaskMetrics metrics() {
        return metrics;
    }

    private static final class Builder {
        private final Resources r;
        private final Map<String, Operator> operators = new HashMap<>();
        private final Map<String, Output> outputs = new HashMap<>();
        private final Map<String, OperatorMetrics> metrics = new HashMap<>();
        private final GraphNode start;

        Builder(Resources resources, GraphNode start) {
            this.r = resources;
            this.start = start;
        }

        /** The output a node's operator emits to: the inputs of all its consumers. */
        Output outputOf(GraphNode node) throws Exception {
            Output cached = outputs.get(node.id());
            if (cached != null) {
                return cached;
            }
            // A row sent on to several consumers counts once as out of this node: on the first of them.
            OperatorMetrics producer = node instanceof UnionNode ? null : metricsOf(node);
            List<Output> targets = new ArrayList<>();
            for (GraphNode consumer : r.graph().downstreamOf(node)) {
                targets.add(inputOf(consumer, targets.isEmpty() ? producer : null));
            }
            Output out = targets.isEmpty() ? Output.DISCARD : Output.broadcast(targets);
            outputs.put(node.id(), out);
            return out;
        }

        /**
         * Where rows sent to a node go: its operator, or straight through for a union. Counts them in for the node,
         * and out for {@code producer} unless null.
         */
        private Output inputOf(GraphNode node, OperatorMetrics producer) throws Exception {
            if (node instanceof UnionNode) {
                Output union = outputOf(node);
                return producer == null ? union : producer.countingOut(union);
            }
            Operator op = operators.get(node.id());
            if (op == null) {
                op = create(node);
                operators.put(node.id(), op);
            }
            return metricsOf(node).input(op, producer);
        }

        /** A sink's or an exchange's rows in are the task's rows out; the exchange a partition task reads is not. */
        private OperatorMetrics metricsOf(GraphNode node) {
            return metrics.computeIfAbsent(node.id(), id -> new OperatorMetrics(id, node.kind(),
                    node instanceof SinkNode || (node instanceof ExchangeNode && node != start)));
        }

        /** Where each rule of a rule set sends its rows: its rule node's consumers (counted out for the rule). */
        private List<Output> ruleOutputs(GraphNode ruleSet) throws Exception {
            Output[] outputs = new Output[((RuleSetNode) ruleSet).rules().size()];
            Arrays.fill(outputs, Output.DISCARD);
            for (GraphNode consumer : r.graph().downstreamOf(ruleSet)) {
                outputs[((RuleNode) consumer).index()] = outputOf(consumer);
            }
            return List.of(outputs);
        }

        private Operator create(GraphNode node) throws Exception {
            if (node instanceof CalcNode) {
                return new CalcOperator((CalcNode) node, outputOf(node));
            }
            if (node instanceof RuleSetNode) {
                return new RuleSetOperator((RuleSetNode) node, ruleOutputs(node));
            }
            if (node instanceof CorrelateNode) {
                return new CorrelateOperator((CorrelateNode) node, outputOf(node));
            }
            if (node instanceof ExchangeNode) {
                return r.stageOutputs().create((ExchangeNode) node, r.taskWakeup(), r.firstCheckpoint());
            }
            if (node instanceof WatermarkAssignerNode) {
                return new WatermarkAssignerOperator(((WatermarkAssignerNode) node).watermarkField(), outputOf(node));
            }
            if (node instanceof WindowAssignerNode) {
                return new WindowAssignerOperator((WindowAssignerNode) node, outputOf(node));
            }
            if (node instanceof GroupAggregateNode) {
                GroupAggregateNode agg = (GroupAggregateNode) node;
                return agg.miniBatch() != null ? new MiniBatchGroupAggregateOperator(agg, outputOf(node))
                        : new GroupAggregateOperator(agg, outputOf(node));
            }
            if (node instanceof LocalGroupAggregateNode) {
                return new LocalGroupAggregateOperator((LocalGroupAggregateNode) node, outputOf(node));
            }
            if (node instanceof GlobalGroupAggregateNode) {
                return new GlobalGroupAggregateOperator((GlobalGroupAggregateNode) node, outputOf(node));
            }
            if (node instanceof WindowAggregateNode) {
                WindowAggregateNode w = (WindowAggregateNode) node;
                return w.slices() != null ? new SlicingWindowAggregateOperator(w, outputOf(node))
                        : w.merging() ? new SessionWindowAggregateOperator(w, outputOf(node))
                        : new WindowAggregateOperator(w, outputOf(node));
            }
            if (node instanceof JoinNode) {
                return new JoinOperator((JoinNode) node, outputOf(node));
            }
            if (node instanceof OverAggregateNode) {
                return new OverAggregateOperator((OverAggregateNode) node, outputOf(node));
            }
            if (node instanceof RankNode) {
                return new RankOperator((RankNode) node, outputOf(node));
            }
            if (node instanceof DeduplicateNode) {
                return new DeduplicateOperator((DeduplicateNode) node, outputOf(node));
            }
            if (node instanceof WindowRankNode) {
                return new WindowRankOperator((WindowRankNode) node, outputOf(node));
            }
            if (node instanceof IntervalJoinNode) {
                return new IntervalJoinOperator((IntervalJoinNode) node, outputOf(node));
            }
            if (node instanceof WindowJoinNode) {
                return new WindowJoinOperator((WindowJoinNode) node, outputOf(node));
            }
            if (node instanceof TemporalJoinNode) {
                return new TemporalJoinOperator((TemporalJoinNode) node, outputOf(node));
            }
            if (node instanceof LookupJoinNode) {
                return new LookupJoinOperator((LookupJoinNode) node, outputOf(node));
            }
            if (node instanceof SemiAntiJoinNode) {
                return new SemiAntiJoinOperator((SemiAntiJoinNode) node, outputOf(node));
            }
            if (node instanceof UpsertMaterializeNode) {
                return new UpsertMaterializeOperator((UpsertMaterializeNode) node, outputOf(node));
            }
            if (node instanceof SinkNode) {
                SinkNode sink = (SinkNode) node;
                boolean upsert = !sink.table().schema().primaryKey().isEmpty() && sink.input().producesUpdates();
                return new SinkOperator(sink.table().name(), r.sinks().get(sink.id()).createWriter(r.writerContext()),
                        upsert);
            }
            throw new IllegalStateException("no operator for graph node " + node);
        }
    }
}
