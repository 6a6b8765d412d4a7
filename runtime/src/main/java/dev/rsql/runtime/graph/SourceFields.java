package dev.rsql.runtime.graph;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The fields of a source that its job reads. A source whose consumers are all calcs (or rule sets of calcs) that name the fields they read
 * needs only those decoded; the others stay NULL in its rows, which no consumer looks at. Any other consumer (a
 * sink, a watermark assigner, a join, a DSL function) may read every field.
 */
public final class SourceFields {

    private SourceFields() {
    }

    /** The fields of {@code source} some consumer reads, in ascending order, or null when that may be any field. */
    public static int[] read(JobGraph graph, SourceNode source) {
        BitSet read = new BitSet();
        for (GraphNode consumer : graph.downstreamOf(source)) {
            int[] fields = consumer instanceof CalcNode ? ((CalcNode) consumer).fieldsRead()
                    : consumer instanceof RuleSetNode ? ((RuleSetNode) consumer).fieldsRead() : null;
            if (fields == null) {
                return null;
            }
            for (int f : fields) {
                read.set(f);
            }
        }
        int arity = source.outputType().size();
        return read.cardinality() == arity ? null : read.stream().filter(f -> f < arity).toArray();
    }

    /** For EXPLAIN: {@code " decodes=a,b"} when the source decodes only fields a and b, else empty. */
    static String describe(JobGraph graph, SourceNode source) {
        int[] read = read(graph, source);
        if (read == null) {
            return "";
        }
        List<String> names = source.outputType().names();
        return " decodes=" + Arrays.stream(read).mapToObj(names::get).collect(Collectors.joining(","));
    }
}
