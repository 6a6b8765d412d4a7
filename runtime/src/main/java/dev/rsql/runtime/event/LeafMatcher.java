package dev.rsql.runtime.event;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The list of conditions of one field (a JSON array in the pattern): the field matches when any of its values
 * passes any condition, or, for {@code exists}, when it has (or has no) value.
 */
final class LeafMatcher {

    private final Set<String> strings;
    private final Set<Double> numbers;
    private final boolean matchesTrue;
    private final boolean matchesFalse;
    private final boolean matchesNull;
    private final ValueTest[] tests;
    private final boolean existsTrue;
    private final boolean existsFalse;

    LeafMatcher(Set<String> strings, Set<Double> numbers, boolean matchesTrue, boolean matchesFalse,
            boolean matchesNull, ValueTest[] tests, boolean existsTrue, boolean existsFalse) {
        this.strings = strings;
        this.numbers = numbers;
        this.matchesTrue = matchesTrue;
        this.matchesFalse = matchesFalse;
        this.matchesNull = matchesNull;
        this.tests = tests;
        this.existsTrue = existsTrue;
        this.existsFalse = existsFalse;
    }

    /**
     * What this leaf matches when an index can file it: its exact values (strings, Doubles, Booleans, {@link #NULL})
     * and its case-sensitive {@link ValueTest.Prefix} and {@link IpRange} tests. A field with it can only match an
     * event that has a value one of these takes. Null when the leaf has other conditions.
     */
    List<Object> indexable() {
        if (existsTrue || existsFalse) {
            return null;
        }
        List<Object> values = new ArrayList<>(strings);
        values.addAll(numbers);
        if (matchesTrue) {
            values.add(Boolean.TRUE);
        }
        if (matchesFalse) {
            values.add(Boolean.FALSE);
        }
        if (matchesNull) {
            values.add(NULL);
        }
        for (ValueTest t : tests) {
            if (t instanceof IpRange || t instanceof ValueTest.Prefix && !((ValueTest.Prefix) t).ignoreCase()) {
                values.add(t);
            } else {
                return null;
            }
        }
        return values;
    }

    /** Stands for JSON null among {@link #exactValues}. */
    static final Object NULL = new Object();

    /** True when one scalar value (String, Number, Boolean or null) passes a condition other than exists. */
    boolean test(Object value) {
        if (value == null) {
            if (matchesNull) {
                return true;
            }
        } else if (value instanceof String) {
            if (strings.contains(value)) {
                return true;
            }
        } else if (value instanceof Number) {
            if (!numbers.isEmpty() && numbers.contains(ValueTest.number(value))) {
                return true;
            }
        } else if (value instanceof Boolean) {
            if ((Boolean) value ? matchesTrue : matchesFalse) {
                return true;
            }
        }
        for (ValueTest t : tests) {
            if (t.test(value)) {
                return true;
            }
        }
        return false;
    }

    /** The verdict once the field's values were seen: {@code present} if it had any, {@code passed} if one passed. */
    boolean verdict(boolean present, boolean passed) {
        return passed || (present ? existsTrue : existsFalse);
    }
}
