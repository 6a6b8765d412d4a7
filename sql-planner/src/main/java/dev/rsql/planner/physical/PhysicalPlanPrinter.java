package dev.rsql.planner.physical;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Prints a physical plan for EXPLAIN, each node with its changelog mode and upsert keys, e.g.
 * {@code GroupAggregate(groupBy=[k], select=[COUNT()]) changelogMode=[I,UA] upsertKeys=[[k]]}.
 */
final class PhysicalPlanPrinter {

    private PhysicalPlanPrinter() {
    }

    static String print(PhysicalPlan plan) {
        StringBuilder sb = new StringBuilder();
        print(plan, plan.root(), 0, sb);
        return sb.toString();
    }

    private static void print(PhysicalPlan plan, RelNode node, int depth, StringBuilder sb) {
        NodeChangelog c = plan.changelog(node);
        sb.append("  ".repeat(depth)).append(((StreamPhysicalRel) node).describe())
                .append(" changelogMode=").append(c.mode());
        if (!c.upsertKeys().isEmpty() && !(node instanceof StreamPhysicalSink)) {
            sb.append(" upsertKeys=").append(c.upsertKeys().stream()
                    .map(k -> fieldNames(node.getRowType(), k.asList())).collect(Collectors.joining(", ", "[", "]")));
        }
        sb.append('\n');
        for (RelNode input : node.getInputs()) {
            print(plan, input, depth + 1, sb);
        }
    }

    /** {@code [a, b]}: the names of fields of a row type. */
    static String fieldNames(RelDataType type, List<Integer> fields) {
        return fields.stream().map(f -> type.getFieldNames().get(f)).collect(Collectors.joining(", ", "[", "]"));
    }

    /** {@code kind(groupBy=[a, b], select=[...])}: a group aggregation of the fields {@code groupBy} of {@code type}. */
    static String groupAggregate(String kind, RelDataType type, List<Integer> groupBy, List<AggregateCall> calls) {
        return kind + "(groupBy=" + fieldNames(type, groupBy) + ", " + select(calls) + ")";
    }

    /** {@code select=[COUNT(), SUM($1)]}: aggregate calls. */
    static String select(List<AggregateCall> calls) {
        return calls.stream().map(AggregateCall::toString).collect(Collectors.joining(", ", "select=[", "]"));
    }
}
