package dev.rsql.planner.calcite;

import dev.rsql.planner.physical.NodePositions;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which views each table read of a statement was expanded in, so that an error about a plan node points into the
 * view it comes from rather than at the INSERT that reads the view. Plan nodes are rewritten and copied on the way to
 * the physical plan, but every scan keeps its {@link RelOptTable}, which each view expansion makes its own: a node
 * belongs to the innermost view whose expansion holds every table it reads, as long as each of those tables is read
 * in one view only (the optimiser merges equal scans): otherwise the statement's position stands.
 */
public final class ViewScopes implements NodePositions {

    /** Per table read, the positions of the views it was expanded in, innermost first. */
    private final IdentityHashMap<RelOptTable, List<SqlParserPos>> scopes = new IdentityHashMap<>();
    /**
     * Per table name, the innermost views its scans were read in (null: outside any view). The optimiser merges
     * equal scans, so a table read in more than one place cannot say where a node over it comes from.
     */
    private final Map<List<String>, Set<SqlParserPos>> readers = new HashMap<>();

    /**
     * Records that every table {@code expanded} reads (subqueries included) belongs to the view at {@code view}; returns
     * the view's plan with a table of its own in each scan read first here (the catalog shares one table per name).
     */
    RelNode add(RelNode expanded, SqlParserPos view) {
        if (expanded instanceof LogicalTableScan && !scopes.containsKey(expanded.getTable())) {
            RelOptTable own = new ScanTable(expanded.getTable());
            readers.computeIfAbsent(own.getQualifiedName(), x -> new HashSet<>()).add(view);
            scopes.put(own, new ArrayList<>(List.of(view)));
            return LogicalTableScan.create(expanded.getCluster(), own, ((LogicalTableScan) expanded).getHints());
        }
        if (expanded instanceof TableScan) {
            scopes.computeIfAbsent(expanded.getTable(), x -> new ArrayList<>()).add(view);
            return expanded;
        }
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode in : expanded.getInputs()) {
            RelNode r = add(in, view);
            inputs.add(r);
            changed |= r != in;
        }
        RelNode rel = changed ? expanded.copy(expanded.getTraitSet(), inputs) : expanded;
        return rel.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                return subQuery.clone(add(subQuery.rel, view));
            }
        });
    }

    /** Records the tables a statement's plan reads outside views. */
    public void addStatement(RelNode plan) {
        for (RelOptTable t : tables(plan, new ArrayList<>())) {
            if (!scopes.containsKey(t)) {
                readers.computeIfAbsent(t.getQualifiedName(), x -> new HashSet<>()).add(null);
            }
        }
    }

    @Override
    public SqlParserPos of(RelNode node) {
        List<RelOptTable> tables = tables(node, new ArrayList<>());
        if (tables.isEmpty() || tables.stream().anyMatch(t -> readers.getOrDefault(t.getQualifiedName(), Set.of())
                .size() != 1)) {
            return null;
        }
        List<SqlParserPos> first = scopes.getOrDefault(tables.get(0), List.of());
        for (SqlParserPos view : first) {
            if (tables.stream().allMatch(t -> scopes.getOrDefault(t, List.of()).contains(view))) {
                return view;
            }
        }
        return null;
    }

    /** The tables {@code rel} reads, one per scan (equal tables of different scans are different objects). */
    private static List<RelOptTable> tables(RelNode rel, List<RelOptTable> out) {
        if (rel instanceof TableScan) {
            out.add(rel.getTable());
        }
        rel.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                tables(subQuery.rel, out);
                return subQuery;
            }
        });
        for (RelNode in : rel.getInputs()) {
            tables(in, out);
        }
        return out;
    }
}
