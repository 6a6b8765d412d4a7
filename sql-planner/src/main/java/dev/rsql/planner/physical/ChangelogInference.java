package dev.rsql.planner.physical;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.calcite.ConnectorTable;
import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Infers the changelog of every node of a physical plan, as Flink's FlinkChangelogModeInferenceProgram does, and
 * makes the plan consistent with it:
 * <ol>
 * <li>bottom-up, which kinds of change each node emits ({@link StreamPhysicalRel#modifyKinds}) and its upsert keys;
 * a node fed kinds it does not accept, or an append-only sink fed updates, is an error at the position of the
 * node producing the changes when it comes from a view (the view's query), else at the INSERT's;</li>
 * <li>at the sink, how it must receive updates: a sink keyed by an upsert key of the query takes +U alone; one keyed
 * otherwise gets an upsert materializer (behind an exchange by its key) that needs -U/+U; a sink without a key takes
 * -U/+U;</li>
 * <li>top-down, how each node needs its inputs to encode updates ({@link StreamPhysicalRel#inputUpdateKind}), so
 * that -U rows are only produced where a consumer needs them; then bottom-up, which nodes emit -U.</li>
 * </ol>
 */
public final class ChangelogInference {

    private final EmitSpec emit;
    private final TableChangelogs changelogs;
    private final SqlParserPos position;
    private final NodePositions nodes;
    private final IdentityHashMap<RelNode, ModifyKindSet> kinds = new IdentityHashMap<>();
    private final IdentityHashMap<RelNode, List<ImmutableBitSet>> keys = new IdentityHashMap<>();
    private final IdentityHashMap<RelNode, UpdateKind> required = new IdentityHashMap<>();
    private final IdentityHashMap<RelNode, NodeChangelog> result = new IdentityHashMap<>();

    /**
     * @param emit the INSERT's EMIT strategy
     * @param changelogs which sources are changelogs, and which tables without a primary key can be written one
     * @param position the INSERT's, for errors
     */
    private ChangelogInference(EmitSpec emit, TableChangelogs changelogs, SqlParserPos position,
                               NodePositions nodes) {
        this.emit = emit;
        this.changelogs = changelogs;
        this.position = position;
        this.nodes = nodes;
    }

    public static PhysicalPlan infer(StreamPhysicalSink sink, EmitSpec emit, TableChangelogs changelogs,
                                     SqlParserPos position) {
        return infer(sink, emit, changelogs, position, NodePositions.NONE);
    }

    /** As above; an error about a changelog is reported where {@code nodes} places its producer (inside a view). */
    public static PhysicalPlan infer(StreamPhysicalSink sink, EmitSpec emit, TableChangelogs changelogs,
                                     SqlParserPos position, NodePositions nodes) {
        return new ChangelogInference(emit, changelogs, position, nodes).run(sink);
    }

    private PhysicalPlan run(StreamPhysicalSink sink) {
        RelNode input = sink.getInput();
        ModifyKindSet in = kinds(input);
        UpdateKind sinkNeeds = UpdateKind.NONE;
        if (in.isChangelog()) {
            ConnectorTable table = sink.connectorTable();
            int[] primaryKey = table == null ? new int[0] : table.descriptor().schema().primaryKeyIndices();
            if (primaryKey.length > 0) {
                ImmutableBitSet key = ImmutableBitSet.of(primaryKey);
                if (!keys.get(input).contains(key)) {
                    input = materialize(input, ImmutableIntList.of(primaryKey));
                }
                sinkNeeds = in.update() ? UpdateKind.ONLY_UPDATE_AFTER : UpdateKind.NONE;
            } else if (table != null && !changelogs.sinkWritesChangelog(table.descriptor())) {
                throw new PlanningException(nodes.of(producer(input), position), sink.sinkName() + " doesn't support consuming "
                        + in.minus(ModifyKindSet.INSERT_ONLY).describe() + " changes which is produced by node "
                        + producer(input).describe() + " (give the table a PRIMARY KEY to write upserts, or a format"
                        + " that keeps row kinds, such as json)");
            } else {
                sinkNeeds = in.update() ? UpdateKind.BEFORE_AND_AFTER : UpdateKind.NONE;
            }
        }
        StreamPhysicalSink root = input == sink.getInput() ? sink
                : (StreamPhysicalSink) sink.copy(sink.getTraitSet(), List.of(input));
        kinds.put(root, kinds.get(input));
        keys.put(root, List.of());
        require(input, sinkNeeds);
        emitsUpdateBefore(root);
        return new PhysicalPlan(root, result);
    }

    /** Pass 1: what a node emits, after its inputs; checks each node accepts what its inputs emit. */
    private ModifyKindSet kinds(RelNode node) {
        ModifyKindSet known = kinds.get(node);
        if (known != null) {
            return known;
        }
        StreamPhysicalRel rel = (StreamPhysicalRel) node;
        List<ModifyKindSet> inputKinds = new ArrayList<>();
        List<List<ImmutableBitSet>> inputKeys = new ArrayList<>();
        for (int i = 0; i < node.getInputs().size(); i++) {
            RelNode input = node.getInput(i);
            ModifyKindSet k = kinds(input);
            ModifyKindSet refused = k.minus(rel.acceptedInputKinds(i));
            if (!refused.isEmpty()) {
                throw new PlanningException(nodes.of(producer(input), position), rel.describe()
                        + " doesn't support consuming "
                        + refused.describe() + " changes which is produced by node " + producer(input).describe());
            }
            inputKinds.add(k);
            inputKeys.add(keys.get(input));
        }
        ModifyKindSet k;
        List<ImmutableBitSet> upsertKeys;
        if (node instanceof StreamPhysicalTableSourceScan && changelogScan((StreamPhysicalTableSourceScan) node)) {
            // a changelog's rows are unique by the table's primary key, where it declares one (as in Flink)
            k = ModifyKindSet.ALL;
            int[] primaryKey = ((StreamPhysicalTableSourceScan) node).connectorTable().descriptor().schema()
                    .primaryKeyIndices();
            upsertKeys = primaryKey.length == 0 ? List.of() : List.of(ImmutableBitSet.of(primaryKey));
        } else {
            k = rel.modifyKinds(inputKinds, emit);
            upsertKeys = rel.upsertKeys(inputKeys);
        }
        kinds.put(node, k);
        keys.put(node, upsertKeys);
        return k;
    }

    private boolean changelogScan(StreamPhysicalTableSourceScan scan) {
        ConnectorTable table = scan.connectorTable();
        return table != null && changelogs.sourceReadsChangelog(table.descriptor());
    }

    /** The node that turns an insert-only stream into a changelog, found from {@code node} down. */
    private StreamPhysicalRel producer(RelNode node) {
        for (RelNode input : node.getInputs()) {
            if (kinds.get(input).isChangelog()) {
                return producer(input);
            }
        }
        return (StreamPhysicalRel) node;
    }

    /** The sink's input behind an exchange by the sink key and an upsert materializer. */
    private RelNode materialize(RelNode input, List<Integer> primaryKey) {
        RelNode exchange = new StreamPhysicalExchange(input.getCluster(), input.getTraitSet(), input, primaryKey);
        RelNode materialize = new StreamPhysicalUpsertMaterialize(input.getCluster(), input.getTraitSet(), exchange,
                primaryKey);
        kinds(materialize);
        return materialize;
    }

    /**
     * Pass 2, top-down: how a node's consumers need its updates encoded. A node read by several consumers (a shared
     * subplan) gets the strongest need.
     */
    private void require(RelNode node, UpdateKind need) {
        UpdateKind before = required.get(node);
        if (before != null && before.compareTo(need) >= 0) {
            return;
        }
        required.put(node, need);
        StreamPhysicalRel rel = (StreamPhysicalRel) node;
        for (RelNode input : node.getInputs()) {
            require(input, kinds.get(input).update() ? rel.inputUpdateKind(need) : UpdateKind.NONE);
        }
    }

    /** Pass 2, bottom-up: whether each node emits -U rows; records each node's changelog. */
    private boolean emitsUpdateBefore(RelNode node) {
        NodeChangelog known = result.get(node);
        if (known != null) {
            return known.mode().hasUpdateBefore();
        }
        boolean inputs = false;
        for (RelNode input : node.getInputs()) {
            inputs |= emitsUpdateBefore(input);
        }
        ModifyKindSet k = kinds.get(node);
        UpdateKind need = required.getOrDefault(node, UpdateKind.NONE);
        boolean ub = k.update() && ((StreamPhysicalRel) node).emitsUpdateBefore(need, inputs);
        result.put(node, new NodeChangelog(new ChangelogMode(k, ub), keys.get(node)));
        return ub;
    }
}
