package dev.rsql.planner.codegen;

import com.google.common.collect.Range;
import dev.rsql.planner.functions.RuleIndex;
import dev.rsql.runtime.graph.CalcNode;
import dev.rsql.runtime.graph.RuleSetFusion;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the generated calcs that read one input and feed sinks only as one rule set, indexed ({@link RuleIndex}) by
 * the tests of each rule's filter it cannot pass without: each ANDed conjunct that is a pattern test of a column
 * whose pattern has required literals ({@code url LIKE '%/etc/passwd%'}, {@code REGEXP(cmdline, 'rm\s+-rf')}), an
 * event pattern test of a column ({@code EVENT_MATCHES(event, '...')}), an equality, IN list, small integer range or
 * IS NULL of a column, or an OR of such tests (indexed by all of them) is
 * one group of keys the row needs one of. A rule with none runs for every row, as do calcs the planner did not
 * generate.
 */
public final class RuleSetPlanner implements RuleSetFusion {

    /** At most this many conjuncts of a rule are indexed (a bit each). */
    private static final int MAX_GROUPS = 63;
    /** Integer ranges up to this many values are indexed value by value ({@code status BETWEEN 500 AND 599}). */
    private static final int MAX_RANGE_VALUES = 256;
    /** What an index key costs relative to a pattern's: column values such as {@code method = 'GET'} are common. */
    private static final int VALUE_KEY_COST = 4;

    private final CalcCompiler compiler;

    public RuleSetPlanner(CalcCompiler compiler) {
        this.compiler = compiler;
    }

    /** One key of a rule: a value (null: NULL) of a column, a pattern of its set, or an event pattern of its set. */
    private record Key(int field, RuleIndex.Kind kind, Object value, PatternSetRewriter.Test pattern,
                       EventPatternSetRewriter.Test event) {
        Key(int field, RuleIndex.Kind kind, Object value, PatternSetRewriter.Test pattern) {
            this(field, kind, value, pattern, null);
        }

        /** An event pattern is exact (the key holds iff the test does); a literal a pattern requires is rare. */
        int cost() {
            return event != null ? 0 : pattern != null ? 1 : VALUE_KEY_COST;
        }
    }

    @Override
    public Selection fuse(List<CalcNode> calcs) {
        RuleIndex.Builder index = new RuleIndex.Builder(calcs.size(), calcs.get(0).input().outputType().names());
        for (int i = 0; i < calcs.size(); i++) {
            RexProgram program = compiler.program(calcs.get(i).functionFactory());
            if (program == null || program.getCondition() == null) {
                continue; // not indexed: runs for every row
            }
            int group = 0;
            for (RexNode conjunct : RelOptUtil.conjunctions(program.expandLocalRef(program.getCondition()))) {
                List<Key> keys = group < MAX_GROUPS ? keys(conjunct, program.getInputRowType()) : null;
                if (keys == null) {
                    continue;
                }
                for (Key k : keys) {
                    if (k.event() != null) {
                        index.eventPattern(i, group, k.field(), k.event().setName(), k.event().index());
                    } else if (k.pattern() != null) {
                        index.pattern(i, group, k.field(), k.pattern().setName(), k.pattern().index());
                    } else {
                        index.value(i, group, k.field(), k.kind(), k.value());
                    }
                }
                group++;
            }
        }
        return new Selection(index.selectors(), index.describe());
    }

    /** Keys one of which a row needs for {@code node} to be TRUE, or null when none are known. */
    private List<Key> keys(RexNode node, RelDataType input) {
        if (!(node instanceof RexCall)) {
            return null;
        }
        RexCall call = (RexCall) node;
        switch (call.getKind()) {
            case AND: {
                List<Key> best = null;
                for (RexNode operand : call.getOperands()) {
                    List<Key> k = keys(operand, input);
                    if (k != null && (best == null || cost(k) < cost(best))) {
                        best = k;
                    }
                }
                return best;
            }
            case OR: {
                List<Key> all = new ArrayList<>();
                for (RexNode operand : call.getOperands()) {
                    List<Key> k = keys(operand, input);
                    if (k == null) {
                        return null;
                    }
                    all.addAll(k);
                }
                return all;
            }
            case EQUALS: {
                List<Key> k = equality(call.getOperands().get(0), call.getOperands().get(1), input);
                return k != null ? k : equality(call.getOperands().get(1), call.getOperands().get(0), input);
            }
            case SEARCH:
                return search(call, input);
            case IS_NULL: {
                int field = column(call.getOperands().get(0));
                return field < 0 ? null : List.of(new Key(field, kind(input, field), null, null));
            }
            default:
                return pattern(call);
        }
    }

    private static int cost(List<Key> keys) {
        return keys.stream().mapToInt(Key::cost).sum();
    }

    /** {@code column = literal}. */
    private List<Key> equality(RexNode column, RexNode literal, RelDataType input) {
        int field = column(column);
        if (field < 0 || !(literal instanceof RexLiteral) || ((RexLiteral) literal).isNull()) {
            return null;
        }
        RuleIndex.Kind kind = kind(input, field);
        Object value = value(kind, (RexLiteral) literal);
        return value == null ? null : List.of(new Key(field, kind, value, null));
    }

    /** {@code column IN (...)}, {@code column BETWEEN a AND b} of integers, and such (as a Sarg). */
    private List<Key> search(RexCall call, RelDataType input) {
        int field = column(call.getOperands().get(0));
        if (field < 0 || !(call.getOperands().get(1) instanceof RexLiteral)) {
            return null;
        }
        RuleIndex.Kind kind = kind(input, field);
        Sarg<?> sarg = ((RexLiteral) call.getOperands().get(1)).getValueAs(Sarg.class);
        if (sarg == null || kind == RuleIndex.Kind.OTHER) {
            return null;
        }
        List<Key> keys = new ArrayList<>();
        for (Range<?> range : sarg.rangeSet.asRanges()) {
            if (!range.hasLowerBound() || !range.hasUpperBound()) {
                return null;
            }
            if (range.lowerEndpoint().equals(range.upperEndpoint())) {
                Object v = value(kind, range.lowerEndpoint());
                if (v == null) {
                    return null;
                }
                keys.add(new Key(field, kind, v, null));
            } else if (kind == RuleIndex.Kind.INTEGER && range.lowerEndpoint() instanceof BigDecimal) {
                BigDecimal lo = ((BigDecimal) range.lowerEndpoint()).setScale(0, RoundingMode.CEILING);
                BigDecimal hi = ((BigDecimal) range.upperEndpoint()).setScale(0, RoundingMode.FLOOR);
                // an open bound excludes itself; including it anyway only adds a candidate
                if (hi.subtract(lo).compareTo(BigDecimal.valueOf(MAX_RANGE_VALUES)) > 0
                        || keys.size() + hi.subtract(lo).intValue() > MAX_RANGE_VALUES) {
                    return null;
                }
                for (long v = lo.longValueExact(); v <= hi.longValueExact(); v++) {
                    keys.add(new Key(field, kind, v, null));
                }
            } else {
                return null;
            }
        }
        if (sarg.nullAs == RexUnknownAs.TRUE) {
            keys.add(new Key(field, kind, null, null));
        }
        return keys;
    }

    /** A pattern-set test of a column whose pattern has a prefilter, or an event-pattern-set test of a column. */
    private List<Key> pattern(RexCall call) {
        EventPatternSetRewriter.Test event = compiler.eventPatternTest(call.getOperator());
        if (event != null && call.getOperands().size() == 1) {
            int field = column(call.getOperands().get(0));
            return field < 0 ? null : List.of(new Key(field, RuleIndex.Kind.OTHER, null, null, event));
        }
        PatternSetRewriter.Test test = compiler.patternTest(call.getOperator());
        if (test == null || call.getOperands().size() != 1) {
            return null;
        }
        int field = column(call.getOperands().get(0));
        // the index needs the literals of every pattern of the set it selects by
        if (field < 0 || !test.set().prefilterAll().prefiltered(test.index())) {
            return null;
        }
        return List.of(new Key(field, RuleIndex.Kind.OTHER, null, test));
    }

    /** The input field {@code node} reads, also through a CAST between integer types; else -1. */
    private static int column(RexNode node) {
        RexNode n = node;
        if (n.getKind() == SqlKind.CAST) {
            RexNode operand = ((RexCall) n).getOperands().get(0);
            if (!isInteger(n.getType().getSqlTypeName()) || !isInteger(operand.getType().getSqlTypeName())) {
                return -1;
            }
            n = operand;
        }
        return n instanceof RexInputRef ? ((RexInputRef) n).getIndex() : -1;
    }

    private static RuleIndex.Kind kind(RelDataType input, int field) {
        SqlTypeName type = input.getFieldList().get(field).getType().getSqlTypeName();
        return type == SqlTypeName.CHAR || type == SqlTypeName.VARCHAR ? RuleIndex.Kind.TEXT
                : isInteger(type) ? RuleIndex.Kind.INTEGER : RuleIndex.Kind.OTHER;
    }

    private static boolean isInteger(SqlTypeName type) {
        return type == SqlTypeName.TINYINT || type == SqlTypeName.SMALLINT || type == SqlTypeName.INTEGER
                || type == SqlTypeName.BIGINT;
    }

    /** A literal's value as a key of a column of this kind, or null when it is not one. */
    private static Object value(RuleIndex.Kind kind, RexLiteral literal) {
        if (kind == RuleIndex.Kind.TEXT && SqlTypeFamily.CHARACTER.contains(literal.getType())) {
            return literal.getValueAs(String.class);
        }
        if (kind == RuleIndex.Kind.INTEGER && SqlTypeFamily.NUMERIC.contains(literal.getType())) {
            return value(kind, literal.getValueAs(BigDecimal.class));
        }
        return null;
    }

    /** A Sarg point (NlsString, BigDecimal) as a key of a column of this kind, or null. */
    private static Object value(RuleIndex.Kind kind, Object point) {
        if (kind == RuleIndex.Kind.TEXT && point instanceof NlsString) {
            return ((NlsString) point).getValue();
        }
        if (kind == RuleIndex.Kind.INTEGER && point instanceof BigDecimal) {
            BigDecimal d = ((BigDecimal) point).stripTrailingZeros();
            try {
                return d.scale() <= 0 ? d.longValueExact() : null;
            } catch (ArithmeticException e) {
                return null;
            }
        }
        return null;
    }
}
