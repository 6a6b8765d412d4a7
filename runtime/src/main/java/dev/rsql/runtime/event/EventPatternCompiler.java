package dev.rsql.runtime.event;

import dev.rsql.runtime.event.PatternNode.Kind;
import dev.rsql.runtime.event.PatternNode.Member;
import dev.rsql.runtime.text.NearestName;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Turns a pattern's JSON into matchers, refusing what event-ruler refuses with the place of the mistake. */
final class EventPatternCompiler {

    static final String OR = "$or";
    private static final List<String> OPERATORS = List.of("prefix", "suffix", "equals-ignore-case", "wildcard",
            "anything-but", "numeric", "exists", "cidr", "exactly");

    private final String text;

    private EventPatternCompiler(String text) {
        this.text = text;
    }

    static EventPattern compile(String text) {
        EventPatternCompiler c = new EventPatternCompiler(text);
        PatternNode root = PatternJsonReader.read(text);
        if (root.kind() != Kind.OBJECT) {
            throw c.error(root, "a pattern is a JSON object, e.g. {\"source\": [\"orders\"]}; found "
                    + root.describe());
        }
        return new EventPattern(text, c.object(root));
    }

    private ObjectMatcher object(PatternNode node) {
        List<FieldMatcher> fields = new ArrayList<>();
        List<ObjectMatcher[]> ors = new ArrayList<>();
        for (Member m : node.members()) {
            PatternNode v = m.value();
            if (m.key().equals(OR) && isOr(v)) {
                if (v.elements().size() < 2) {
                    throw error(v, "$or needs at least two patterns");
                }
                ObjectMatcher[] branches = new ObjectMatcher[v.elements().size()];
                for (int i = 0; i < branches.length; i++) {
                    branches[i] = object(v.elements().get(i));
                }
                ors.add(branches);
                continue;
            }
            if (m.key().isEmpty()) {
                throw error(m.keyOffset(), "a field name is empty");
            }
            String[] path = m.key().split("\\.", -1);
            for (String p : path) {
                if (p.isEmpty()) {
                    throw error(m.keyOffset(), "field name \"" + m.key() + "\" has an empty part between dots");
                }
            }
            if (v.kind() == Kind.OBJECT) {
                fields.add(new FieldMatcher(path, null, object(v)));
            } else if (v.kind() == Kind.ARRAY) {
                fields.add(new FieldMatcher(path, leaf(v), null));
            } else {
                throw error(v, "the conditions of field \"" + m.key() + "\" are a JSON array, e.g. [" + example(v)
                        + "]; found " + v.describe());
            }
        }
        return new ObjectMatcher(fields.toArray(new FieldMatcher[0]), ors.toArray(new ObjectMatcher[0][]));
    }

    /** {@code $or} is a list of pattern objects; a list of values or operators makes it a field named "$or". */
    private static boolean isOr(PatternNode v) {
        if (v.kind() != Kind.ARRAY || v.elements().isEmpty()) {
            return false;
        }
        for (PatternNode e : v.elements()) {
            if (e.kind() != Kind.OBJECT) {
                return false;
            }
            for (Member m : e.members()) {
                if (OPERATORS.contains(m.key())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String example(PatternNode v) {
        return v.kind() == Kind.STRING ? "\"" + v.value() + "\"" : v.isScalar() ? String.valueOf(v.value()) : "\"x\"";
    }

    private LeafMatcher leaf(PatternNode array) {
        if (array.elements().isEmpty()) {
            throw error(array, "an empty list of conditions matches nothing");
        }
        Set<String> strings = new HashSet<>();
        Set<Double> numbers = new HashSet<>();
        boolean isTrue = false;
        boolean isFalse = false;
        boolean isNull = false;
        boolean existsTrue = false;
        boolean existsFalse = false;
        List<ValueTest> tests = new ArrayList<>();
        for (PatternNode e : array.elements()) {
            switch (e.kind()) {
                case STRING:
                    strings.add((String) e.value());
                    break;
                case NUMBER:
                    numbers.add(normal((Double) e.value()));
                    break;
                case BOOLEAN:
                    isTrue |= (Boolean) e.value();
                    isFalse |= !(Boolean) e.value();
                    break;
                case NULL:
                    isNull = true;
                    break;
                case ARRAY:
                    throw error(e, "a condition is a value or an operator object, not an array");
                default:
                    Member op = operator(e);
                    if (op.key().equals("exists")) {
                        if (op.value().kind() != Kind.BOOLEAN) {
                            throw error(op.value(), "exists takes true or false, found " + op.value().describe());
                        }
                        existsTrue |= (Boolean) op.value().value();
                        existsFalse |= !(Boolean) op.value().value();
                    } else if (op.key().equals("exactly")) {
                        strings.add(string(op));
                    } else {
                        tests.add(test(op));
                    }
            }
        }
        return new LeafMatcher(strings, numbers, isTrue, isFalse, isNull, tests.toArray(new ValueTest[0]),
                existsTrue, existsFalse);
    }

    /** The one member of an operator object, checked to be a known operator. */
    private Member operator(PatternNode object) {
        List<Member> members = object.members();
        if (members.size() != 1) {
            throw error(object, members.isEmpty() ? "an empty object is no condition; write an operator such as "
                    + "{\"prefix\": \"x\"}" : "an operator object has one operator, found " + members.size());
        }
        Member op = members.get(0);
        if (!OPERATORS.contains(op.key())) {
            String near = NearestName.of(op.key(), OPERATORS);
            throw error(op.keyOffset(), "unknown operator \"" + op.key() + "\""
                    + (near != null ? " (did you mean \"" + near + "\"?)" : "; the operators are "
                    + String.join(", ", OPERATORS)));
        }
        return op;
    }

    private ValueTest test(Member op) {
        PatternNode v = op.value();
        switch (op.key()) {
            case "prefix":
            case "suffix":
                return affix(op);
            case "equals-ignore-case":
                return new ValueTest.EqualsIgnoreCase(string(op));
            case "wildcard":
                return wildcard(v);
            case "numeric":
                return numeric(v);
            case "cidr":
                try {
                    return IpRange.parse(string(op));
                } catch (IllegalArgumentException e) {
                    throw error(v, "cidr " + e.getMessage());
                }
            case "anything-but":
                return anythingBut(v);
            default:
                throw new IllegalStateException(op.key());
        }
    }

    /** {@code prefix} or {@code suffix}: a string (empty matches every string), or {@code {"equals-ignore-case": "..."}}. */
    private ValueTest affix(Member op) {
        PatternNode v = op.value();
        boolean ignoreCase = false;
        String s;
        if (v.kind() == Kind.OBJECT) {
            Member inner = operator(v);
            if (!inner.key().equals("equals-ignore-case")) {
                throw error(inner.keyOffset(), op.key() + " takes a string or {\"equals-ignore-case\": \"...\"}");
            }
            s = string(inner);
            ignoreCase = true;
        } else {
            s = string(op);
        }
        return op.key().equals("prefix") ? new ValueTest.Prefix(s, ignoreCase) : new ValueTest.Suffix(s, ignoreCase);
    }

    private Wildcard wildcard(PatternNode v) {
        if (v.kind() != Kind.STRING) {
            throw error(v, "wildcard takes a string, found " + v.describe());
        }
        try {
            return Wildcard.compile((String) v.value());
        } catch (Wildcard.WildcardException e) {
            throw error(v, e.getMessage() + " (at character " + (e.index + 1) + " of \"" + v.value() + "\")");
        }
    }

    private ValueTest numeric(PatternNode v) {
        List<PatternNode> e = v.kind() == Kind.ARRAY ? v.elements() : List.of();
        if (e.size() != 2 && e.size() != 4) {
            throw error(v, "numeric takes one or two comparisons, e.g. [\">\", 0, \"<=\", 5]");
        }
        double lower = Double.NEGATIVE_INFINITY;
        double upper = Double.POSITIVE_INFINITY;
        boolean lowerInclusive = false;
        boolean upperInclusive = false;
        boolean hasLower = false;
        boolean hasUpper = false;
        for (int i = 0; i < e.size(); i += 2) {
            PatternNode opNode = e.get(i);
            PatternNode valueNode = e.get(i + 1);
            if (opNode.kind() != Kind.STRING) {
                throw error(opNode, "expected a comparison (\"=\", \"!=\", \"<\", \"<=\", \">\", \">=\"), found "
                        + opNode.describe());
            }
            if (valueNode.kind() != Kind.NUMBER) {
                throw error(valueNode, "numeric compares with a number, found " + valueNode.describe());
            }
            String cmp = (String) opNode.value();
            double d = normal((Double) valueNode.value());
            switch (cmp) {
                case "=":
                case "!=":
                    if (e.size() != 2) {
                        throw error(opNode, "\"" + cmp + "\" stands alone in numeric");
                    }
                    return new ValueTest.Numeric(d, true, d, true, cmp.equals("!="));
                case ">":
                case ">=":
                    if (hasLower) {
                        throw error(opNode, "numeric has two lower bounds");
                    }
                    hasLower = true;
                    lower = d;
                    lowerInclusive = cmp.equals(">=");
                    break;
                case "<":
                case "<=":
                    if (e.size() == 4 && i == 0) {
                        throw error(opNode, "numeric with two comparisons takes the lower bound first, e.g. "
                                + "[\">\", 0, \"<=\", 5]");
                    }
                    if (hasUpper) {
                        throw error(opNode, "numeric has two upper bounds");
                    }
                    hasUpper = true;
                    upper = d;
                    upperInclusive = cmp.equals("<=");
                    break;
                default:
                    throw error(opNode, "unknown comparison \"" + cmp + "\"; use =, !=, <, <=, > or >=");
            }
        }
        if (hasLower && hasUpper && lower >= upper) {
            throw error(v, "the lower bound of numeric must be below its upper bound");
        }
        return new ValueTest.Numeric(lower, lowerInclusive, upper, upperInclusive, false);
    }

    /**
     * {@code anything-but}: a string or number, a list of strings or of numbers, or one of {@code prefix},
     * {@code suffix}, {@code equals-ignore-case} and {@code wildcard} (the last two also with a list).
     */
    private ValueTest anythingBut(PatternNode v) {
        Set<String> strings = new HashSet<>();
        Set<Double> numbers = new HashSet<>();
        switch (v.kind()) {
            case STRING:
                strings.add((String) v.value());
                break;
            case NUMBER:
                numbers.add(normal((Double) v.value()));
                break;
            case ARRAY:
                if (v.elements().isEmpty()) {
                    throw error(v, "anything-but needs at least one value");
                }
                Kind kind = v.elements().get(0).kind();
                for (PatternNode e : v.elements()) {
                    if (e.kind() != Kind.STRING && e.kind() != Kind.NUMBER) {
                        throw error(e, "anything-but lists strings or numbers, found " + e.describe());
                    }
                    if (e.kind() != kind) {
                        throw error(e, "anything-but lists either strings or numbers, not both");
                    }
                    if (kind == Kind.STRING) {
                        strings.add((String) e.value());
                    } else {
                        numbers.add(normal((Double) e.value()));
                    }
                }
                break;
            case OBJECT:
                return new ValueTest.AnythingBut(Set.of(), Set.of(), anythingButOperator(operator(v)));
            default:
                throw error(v, "anything-but takes a string, a number, a list of them or an operator, found "
                        + v.describe());
        }
        return new ValueTest.AnythingBut(strings, numbers, null);
    }

    private ValueTest anythingButOperator(Member op) {
        switch (op.key()) {
            case "prefix":
            case "suffix":
                return affix(op);
            case "equals-ignore-case":
            case "wildcard": {
                PatternNode v = op.value();
                List<PatternNode> values = v.kind() == Kind.ARRAY ? v.elements() : List.of(v);
                if (values.isEmpty()) {
                    throw error(v, op.key() + " needs at least one string");
                }
                ValueTest[] tests = new ValueTest[values.size()];
                for (int i = 0; i < tests.length; i++) {
                    PatternNode s = values.get(i);
                    if (s.kind() != Kind.STRING) {
                        throw error(s, op.key() + " takes strings, found " + s.describe());
                    }
                    tests[i] = op.key().equals("wildcard") ? wildcard(s)
                            : new ValueTest.EqualsIgnoreCase((String) s.value());
                }
                return tests.length == 1 ? tests[0] : new ValueTest.AnyOf(tests);
            }
            default:
                throw error(op.keyOffset(), "anything-but takes prefix, suffix, equals-ignore-case or wildcard, not "
                        + op.key());
        }
    }

    private String string(Member op) {
        if (op.value().kind() != Kind.STRING) {
            throw error(op.value(), op.key() + " takes a string, found " + op.value().describe());
        }
        return (String) op.value().value();
    }

    private static double normal(double d) {
        return d == 0 ? 0.0 : d;
    }

    private EventPatternException error(PatternNode at, String detail) {
        return error(at.offset(), detail);
    }

    private EventPatternException error(int offset, String detail) {
        return new EventPatternException(text, offset, detail);
    }
}
