package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Builds a {@link JobGraph}: the Java DSL, and what the SQL planner uses. Reading one table twice gives one source
 * node; writing one table from several streams gives one sink node over their union.
 *
 * <pre>{@code
 * GraphBuilder b = new GraphBuilder("alerts");
 * b.source(events).filter(r -> (Integer) r[2] > 100).sinkTo(alerts);
 * JobGraph g = b.build();
 * }</pre>
 */
public final class GraphBuilder {

    private final String jobName;
    private final Map<String, SourceNode> sources = new LinkedHashMap<>();
    private final Map<String, List<GraphNode>> sinkInputs = new LinkedHashMap<>();
    private final Map<String, TableDescriptor> sinkTables = new LinkedHashMap<>();
    private final Set<String> ids = new HashSet<>();
    private Options parameters = Options.empty();
    private RuleSetFusion ruleSets;

    public GraphBuilder(String jobName) {
        this.jobName = jobName;
    }

    public GraphBuilder parameters(Options parameters) {
        this.parameters = parameters;
        return this;
    }

    public Stream source(TableDescriptor table) {
        return source(table, ErrorPolicy.FAIL, null);
    }

    public Stream source(TableDescriptor table, ErrorPolicy errorPolicy, TableDescriptor deadLetterTable) {
        SourceNode node = sources.computeIfAbsent(table.name(), k -> {
            String id = uniqueId("source-" + k);
            return new SourceNode(id, table, errorPolicy, deadLetterTable);
        });
        return new Stream(node);
    }

    /** Merges streams of one row type. */
    public Stream union(List<Stream> streams) {
        if (streams.size() == 1) {
            return streams.get(0);
        }
        List<GraphNode> inputs = new ArrayList<>();
        StringBuilder key = new StringBuilder("union");
        for (Stream s : streams) {
            inputs.add(s.node);
            key.append('|').append(s.node.id());
        }
        RowType type = streams.get(0).node.outputType();
        return new Stream(new UnionNode(uniqueId("union-" + digest(key.toString())), inputs, type));
    }

    /**
     * Lets {@code fusion} run calcs that read one input and feed sinks only as rule sets ({@link RuleSetNode}) when
     * the graph is built; by default every calc runs on its own.
     */
    public GraphBuilder fuseRuleSets(RuleSetFusion fusion) {
        this.ruleSets = fusion;
        return this;
    }

    public JobGraph build() {
        if (ruleSets != null) {
            applyRuleSets();
        }
        List<SinkNode> sinks = new ArrayList<>();
        sinkInputs.forEach((name, inputs) -> {
            TableDescriptor table = sinkTables.get(name);
            GraphNode input;
            if (inputs.size() == 1) {
                input = inputs.get(0);
            } else {
                List<Stream> streams = new ArrayList<>();
                inputs.forEach(i -> streams.add(new Stream(i)));
                input = union(streams).node;
            }
            sinks.add(new SinkNode(uniqueId("sink-" + name), input, table));
        });
        if (sinks.isEmpty()) {
            throw new IllegalStateException("job " + jobName + " writes to no table");
        }
        return new JobGraph(jobName, sinks, parameters);
    }

    /**
     * Replaces, in the sinks' inputs, the calcs that only sinks read by the rules of rule sets: per input node, those
     * of its calcs that do not split updates, if the fusion takes them.
     */
    private void applyRuleSets() {
        Set<String> readByNodes = new HashSet<>();
        Set<String> visited = new HashSet<>();
        ArrayDeque<GraphNode> pending = new ArrayDeque<>();
        sinkInputs.values().forEach(pending::addAll);
        while (!pending.isEmpty()) {
            GraphNode n = pending.poll();
            if (visited.add(n.id())) {
                for (GraphNode in : n.inputs()) {
                    readByNodes.add(in.id());
                    pending.add(in);
                }
            }
        }
        Map<String, List<CalcNode>> byInput = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        for (List<GraphNode> inputs : sinkInputs.values()) {
            for (GraphNode n : inputs) {
                if (n instanceof CalcNode && !((CalcNode) n).splitsUpdates() && !readByNodes.contains(n.id())
                        && seen.add(n.id())) {
                    byInput.computeIfAbsent(((CalcNode) n).input().id(), k -> new ArrayList<>()).add((CalcNode) n);
                }
            }
        }
        Map<String, GraphNode> replaced = new HashMap<>();
        for (List<CalcNode> calcs : byInput.values()) {
            RuleSetFusion.Selection selection = calcs.size() < 2 ? null : ruleSets.fuse(calcs);
            if (selection == null) {
                continue;
            }
            GraphNode input = calcs.get(0).input();
            RuleSetNode set = new RuleSetNode(uniqueId("rules-" + digest(input.id() + "|" + calcs.size())), input,
                    calcs, selection.selectors(), selection.description());
            for (int i = 0; i < calcs.size(); i++) {
                replaced.put(calcs.get(i).id(), new RuleNode(set, i));
            }
        }
        sinkInputs.values().forEach(inputs -> inputs.replaceAll(n -> replaced.getOrDefault(n.id(), n)));
    }

    private String uniqueId(String base) {
        String id = base;
        for (int i = 2; !ids.add(id); i++) {
            id = base + "-" + i;
        }
        return id;
    }

    /** Short stable hash of a node's content, so ids do not depend on build order. */
    static String digest(String content) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-1").digest(content.getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 4; i++) {
                sb.append(String.format("%02x", h[i]));
            }
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A stream of rows: the output of one graph node. */
    public final class Stream {
        private final GraphNode node;

        Stream(GraphNode node) {
            this.node = node;
        }

        public GraphNode node() {
            return node;
        }

        public RowType rowType() {
            return node.outputType();
        }

        /** A calc node running the given function; {@code description} is shown by EXPLAIN and names the node. */
        public Stream calc(RowType outputType, Supplier<? extends CalcFunction> function, String description) {
            return calc(outputType, function, description, false, new int[0]);
        }

        /**
         * A calc node; {@code splitsUpdates} when it filters a changelog that carries -U/+U pairs, so that an update
         * leaving the filter becomes a delete and one entering it an insert; {@code updateKey} are the input fields
         * both halves of an update share (see {@link CalcNode}).
         */
        public Stream calc(RowType outputType, Supplier<? extends CalcFunction> function, String description,
                           boolean splitsUpdates, int[] updateKey) {
            return calc(outputType, function, description, splitsUpdates, updateKey, null);
        }

        /**
         * As above, for a function that reads only {@code fieldsRead} of its input (null: any field): a source
         * whose consumers all say so need not decode the other fields ({@link SourceFields}).
         */
        public Stream calc(RowType outputType, Supplier<? extends CalcFunction> function, String description,
                           boolean splitsUpdates, int[] updateKey, int[] fieldsRead) {
            String id = uniqueId("calc-" + digest(node.id() + "|" + description + "|" + outputType));
            return new Stream(new CalcNode(id, node, outputType, function, description, splitsUpdates, updateKey,
                    fieldsRead));
        }

        /**
         * A correlate node ({@code LATERAL TABLE}): the input's fields followed by the table function's columns;
         * {@code left} keeps input rows the function produces nothing for, padded with NULLs.
         */
        public Stream correlate(RowType outputType, Supplier<? extends CorrelateFunction> function,
                                Function<Object, Object[]> rowConverter, boolean left, String description) {
            String id = uniqueId("correlate-" + digest(node.id() + "|" + left + "|" + description + "|" + outputType));
            return new Stream(new CorrelateNode(id, node, outputType, function, rowConverter, left, description));
        }

        public Stream filter(Predicate<Object[]> predicate) {
            return calc(node.outputType(), () -> in -> predicate.test(in) ? in : null, "filter " + predicate);
        }

        public Stream map(RowType outputType, Function<Object[], Object[]> mapper) {
            return calc(outputType, () -> mapper::apply, "map " + mapper);
        }

        /** Generates watermarks from {@code watermarkField} (e.g. rowtime minus the allowed out-of-orderness). */
        public Stream watermark(int rowtimeField, int watermarkField) {
            String id = uniqueId("watermark-" + digest(node.id() + "|" + rowtimeField + "|" + watermarkField));
            return new Stream(new WatermarkAssignerNode(id, node, rowtimeField, watermarkField));
        }

        /** Repartitions by key fields (none: a single partition). */
        public Stream exchange(int... keyFields) {
            String id = uniqueId("exchange-" + digest(node.id() + "|" + java.util.Arrays.toString(keyFields)));
            return new Stream(new ExchangeNode(id, node, keyFields));
        }

        /** Appends window_start, window_end, window_time for each window a row falls into. */
        public Stream window(WindowSpec window) {
            String id = uniqueId("window-" + digest(node.id() + "|" + window));
            return new Stream(new WindowAssignerNode(id, node, window));
        }

        /**
         * Appends window_start, window_end, window_time of the one slice of a HOP or CUMULATE window a row falls into
         * (see {@link WindowSlices}), for a {@link #slicedWindowAggregate}.
         */
        public Stream windowSlices(WindowSpec window) {
            String id = uniqueId("window-" + digest(node.id() + "|" + window + "|sliced"));
            return new Stream(new WindowAssignerNode(id, node, window, true));
        }

        /** GROUP BY without a window (the stream must already be partitioned by the group fields). */
        public Stream groupAggregate(int[] groupFields, List<AggregateCall> aggregates, RowType outputType,
                                     long stateTtlMillis, boolean updateBefore) {
            String id = uniqueId("aggregate-" + digest(node.id() + "|" + java.util.Arrays.toString(groupFields) + "|"
                    + aggregates.stream().map(AggregateCall::name).collect(java.util.stream.Collectors.joining(","))));
            return new Stream(new GroupAggregateNode(id, node, groupFields, aggregates, outputType, stateTtlMillis,
                    updateBefore));
        }

        /** As above, folding the input in mini-batches ({@code miniBatch} null: row by row). */
        public Stream groupAggregate(int[] groupFields, List<AggregateCall> aggregates, RowType outputType,
                                     long stateTtlMillis, boolean updateBefore, MiniBatchSpec miniBatch) {
            String id = uniqueId("aggregate-" + digest(node.id() + "|" + java.util.Arrays.toString(groupFields) + "|"
                    + aggregates.stream().map(AggregateCall::name).collect(java.util.stream.Collectors.joining(","))));
            return new Stream(new GroupAggregateNode(id, node, groupFields, aggregates, outputType, stateTtlMillis,
                    updateBefore, miniBatch));
        }

        /** The local phase of a two-phase GROUP BY (before its exchange by the group fields). */
        public Stream localGroupAggregate(int[] groupFields, List<AggregateCall> aggregates, MiniBatchSpec miniBatch) {
            String id = uniqueId("local-aggregate-" + digest(node.id() + "|" + java.util.Arrays.toString(groupFields)
                    + "|" + aggregates.stream().map(AggregateCall::name)
                    .collect(java.util.stream.Collectors.joining(","))));
            return new Stream(new LocalGroupAggregateNode(id, node, groupFields, aggregates, miniBatch));
        }

        /** The global phase of a two-phase GROUP BY, over the exchange of the local phase's rows. */
        public Stream globalGroupAggregate(int groupCount, List<AggregateCall> aggregates, RowType outputType,
                                           long stateTtlMillis, boolean updateBefore, MiniBatchSpec miniBatch) {
            String id = uniqueId("global-aggregate-" + digest(node.id() + "|" + groupCount + "|"
                    + aggregates.stream().map(AggregateCall::name).collect(java.util.stream.Collectors.joining(","))));
            return new Stream(new GlobalGroupAggregateNode(id, node, groupCount, aggregates, outputType,
                    stateTtlMillis, updateBefore, miniBatch));
        }

        /** Windowed GROUP BY over rows carrying window_start/window_end (after {@link #window}). */
        public Stream windowAggregate(int[] groupFields, int windowStartField, int windowEndField, boolean eventTime,
                                      boolean merging, List<AggregateCall> aggregates, EmitSpec emit,
                                      RowType outputType, TableDescriptor lateDataTable) {
            // Sessions got a new state layout (one value per key) and so a new id: an older checkpoint of them is
            // refused, not restored without its sessions.
            String id = uniqueId("window-aggregate-" + digest(node.id() + "|" + java.util.Arrays.toString(groupFields)
                    + "|" + aggregates.stream().map(AggregateCall::name).collect(java.util.stream.Collectors.joining(","))
                    + "|" + emit + (merging ? "|sessions" : "")));
            return new Stream(new WindowAggregateNode(id, node, groupFields, windowStartField, windowEndField, eventTime,
                    merging, aggregates, emit, outputType, lateDataTable));
        }

        /**
         * Windowed GROUP BY over rows carrying the slice of {@code window} they fall into (after
         * {@link #windowSlices}): each window's result once, when it closes.
         */
        public Stream slicedWindowAggregate(int[] groupFields, int windowStartField, int windowEndField,
                                            WindowSpec window, List<AggregateCall> aggregates, RowType outputType,
                                            TableDescriptor lateDataTable) {
            String id = uniqueId("window-aggregate-" + digest(node.id() + "|" + java.util.Arrays.toString(groupFields)
                    + "|" + aggregates.stream().map(AggregateCall::name).collect(java.util.stream.Collectors.joining(","))
                    + "|" + EmitSpec.ON_WATERMARK + "|sliced"));
            return new Stream(new WindowAggregateNode(id, node, groupFields, windowStartField, windowEndField,
                    window.eventTime(), new WindowSlices(window), aggregates, outputType, lateDataTable));
        }

        /**
         * Keeps, per value of the key fields, every row currently in the result, and emits per key the last one
         * (see {@link UpsertMaterializeNode}); the stream must already be partitioned by those fields.
         */
        public Stream upsertMaterialize(int[] keyFields) {
            String id = uniqueId("materialize-" + digest(node.id() + "|" + java.util.Arrays.toString(keyFields)));
            return new Stream(new UpsertMaterializeNode(id, node, keyFields));
        }

        /**
         * A regular join over tagged rows of both sides (see {@link JoinNode}); the stream must already be partitioned
         * by the key fields.
         */
        public Stream join(JoinNode.Type type, int keyCount, RowType leftType, RowType rightType, RowType outputType,
                           Supplier<? extends CalcFunction> condition, String description, long stateTtlMillis) {
            String id = uniqueId("join-" + digest(node.id() + "|" + type + "|" + description));
            return new Stream(new JoinNode(id, node, type, keyCount, leftType, rightType, outputType, condition,
                    description, stateTtlMillis));
        }

        /**
         * Aggregates over a window of preceding rows per partition (see {@link OverAggregateNode}); the stream must
         * already be partitioned by the partition fields.
         */
        public Stream overAggregate(int[] partitionFields, int timeField, boolean eventTime, boolean rows,
                                    long preceding, List<AggregateCall> aggregates, RowType outputType,
                                    long stateTtlMillis, TableDescriptor lateDataTable) {
            String id = uniqueId("over-" + digest(node.id() + "|" + java.util.Arrays.toString(partitionFields) + "|"
                    + timeField + "|" + eventTime + "|" + rows + "|" + preceding + "|"
                    + aggregates.stream().map(AggregateCall::name).collect(java.util.stream.Collectors.joining(","))));
            return new Stream(new OverAggregateNode(id, node, partitionFields, timeField, eventTime, rows, preceding,
                    aggregates, outputType, stateTtlMillis, lateDataTable));
        }

        /** TopN over a stream already partitioned by the partition fields (see {@link RankNode}). */
        public Stream rank(RowType outputType, int[] partitionFields, RankNode.Order order, RankNode.Function function,
                           long rankStart, long rankEnd, boolean outputRankNumber, boolean appendOnlyInput,
                           boolean updateBefore, long stateTtlMillis) {
            String id = uniqueId("rank-" + digest(node.id() + "|" + java.util.Arrays.toString(partitionFields) + "|"
                    + order + "|" + function + "|" + rankStart + "|" + rankEnd + "|" + outputRankNumber));
            return new Stream(new RankNode(id, node, outputType, partitionFields, order, function, rankStart, rankEnd,
                    outputRankNumber, appendOnlyInput, updateBefore, stateTtlMillis));
        }

        /** Keeps the first or last row per key (see {@link DeduplicateNode}); partitioned by the key already. */
        public Stream deduplicate(int[] keyFields, int timeField, boolean eventTime, boolean keepLast,
                                  boolean updateBefore, long stateTtlMillis) {
            String id = uniqueId("deduplicate-" + digest(node.id() + "|" + java.util.Arrays.toString(keyFields) + "|"
                    + timeField + "|" + eventTime + "|" + keepLast));
            return new Stream(new DeduplicateNode(id, node, keyFields, timeField, eventTime, keepLast, updateBefore,
                    stateTtlMillis));
        }

        /** Window TopN over a stream already partitioned by the partition fields (see {@link WindowRankNode}). */
        public Stream windowRank(RowType outputType, int[] partitionFields, RankNode.Order order,
                                 RankNode.Function function, long rankStart, long rankEnd, boolean outputRankNumber,
                                 int windowEndField) {
            String id = uniqueId("window-rank-" + digest(node.id() + "|" + java.util.Arrays.toString(partitionFields)
                    + "|" + order + "|" + function + "|" + rankStart + "|" + rankEnd + "|" + outputRankNumber));
            return new Stream(new WindowRankNode(id, node, outputType, partitionFields, order, function, rankStart,
                    rankEnd, outputRankNumber, windowEndField));
        }

        /**
         * An interval join over tagged rows of both sides (see {@link IntervalJoinNode}); the stream must already be
         * partitioned by the key fields.
         */
        public Stream intervalJoin(JoinNode.Type type, int keyCount, RowType leftType, RowType rightType,
                                   RowType outputType, Supplier<? extends CalcFunction> condition, String description,
                                   boolean eventTime, int leftTimeField, int rightTimeField, long lowerBound,
                                   long upperBound) {
            String id = uniqueId("interval-join-" + digest(node.id() + "|" + type + "|" + description));
            return new Stream(new IntervalJoinNode(id, node, type, keyCount, leftType, rightType, outputType,
                    condition, description, eventTime, leftTimeField, rightTimeField, lowerBound, upperBound));
        }

        /** A window join over tagged rows of both sides (see {@link WindowJoinNode}), partitioned by the key fields. */
        public Stream windowJoin(JoinNode.Type type, int keyCount, RowType leftType, RowType rightType,
                                 RowType outputType, Supplier<? extends CalcFunction> condition, String description,
                                 int leftWindowEndField, int rightWindowEndField) {
            String id = uniqueId("window-join-" + digest(node.id() + "|" + type + "|" + description));
            return new Stream(new WindowJoinNode(id, node, type, keyCount, leftType, rightType, outputType, condition,
                    description, leftWindowEndField, rightWindowEndField));
        }

        /**
         * An event-time temporal join over tagged rows of both sides (see {@link TemporalJoinNode}), partitioned by
         * the key fields.
         */
        public Stream temporalJoin(JoinNode.Type type, int keyCount, RowType leftType, RowType rightType,
                                   RowType outputType, Supplier<? extends CalcFunction> condition, String description,
                                   int leftTimeField, int rightTimeField) {
            String id = uniqueId("temporal-join-" + digest(node.id() + "|" + type + "|" + description));
            return new Stream(new TemporalJoinNode(id, node, type, keyCount, leftType, rightType, outputType,
                    condition, description, leftTimeField, rightTimeField));
        }

        /** A lookup join of this stream with a dimension table (see {@link LookupJoinNode}). */
        public Stream lookupJoin(TableDescriptor table, int[] lookupColumns, boolean uniqueKey, boolean leftOuter,
                                 Supplier<? extends CalcFunction> key, Supplier<? extends CalcFunction> condition,
                                 RowType outputType, String description) {
            String id = uniqueId("lookup-join-" + digest(node.id() + "|" + table.name() + "|" + description));
            return new Stream(new LookupJoinNode(id, node, table, lookupColumns, uniqueKey, leftOuter, key,
                    condition, outputType, description));
        }

        /**
         * A semi or anti join over tagged rows of both sides (see {@link SemiAntiJoinNode}); the stream must already be
         * partitioned by the key fields.
         */
        public Stream semiAntiJoin(boolean anti, int keyCount, RowType leftType, RowType rightType,
                                   Supplier<? extends CalcFunction> condition, String description,
                                   long stateTtlMillis) {
            String id = uniqueId((anti ? "anti-join-" : "semi-join-") + digest(node.id() + "|" + description));
            return new Stream(new SemiAntiJoinNode(id, node, anti, keyCount, leftType, rightType, condition,
                    description, stateTtlMillis));
        }

        public Stream union(Stream... others) {
            List<Stream> all = new ArrayList<>();
            all.add(this);
            all.addAll(List.of(others));
            return GraphBuilder.this.union(all);
        }

        public void sinkTo(TableDescriptor table) {
            sinkTables.putIfAbsent(table.name(), table);
            sinkInputs.computeIfAbsent(table.name(), k -> new ArrayList<>()).add(node);
        }
    }
}
