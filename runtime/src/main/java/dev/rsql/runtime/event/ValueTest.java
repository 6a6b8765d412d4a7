package dev.rsql.runtime.event;

import java.util.Set;

/**
 * A test of one scalar value of an event: a String, a Number, a Boolean, or null for JSON null. Strings match only
 * strings and numbers only numbers ({@code "7"} is not {@code 7}); numbers compare by value ({@code 5}, {@code 5.0}
 * and {@code 5e0} are equal).
 */
interface ValueTest {

    boolean test(Object value);

    /** A number as the tests compare it: by value, with -0 equal to 0. */
    static double number(Object value) {
        double d = ((Number) value).doubleValue();
        return d == 0 ? 0.0 : d;
    }

    /** {@code prefix}, alone or with {@code equals-ignore-case}. */
    record Prefix(String prefix, boolean ignoreCase) implements ValueTest {
        @Override
        public boolean test(Object value) {
            return value instanceof String && ((String) value).regionMatches(ignoreCase, 0, prefix, 0, prefix.length());
        }
    }

    /** {@code suffix}, alone or with {@code equals-ignore-case}. */
    record Suffix(String suffix, boolean ignoreCase) implements ValueTest {
        @Override
        public boolean test(Object value) {
            if (!(value instanceof String)) {
                return false;
            }
            String s = (String) value;
            return s.length() >= suffix.length()
                    && s.regionMatches(ignoreCase, s.length() - suffix.length(), suffix, 0, suffix.length());
        }
    }

    /** {@code equals-ignore-case}. */
    record EqualsIgnoreCase(String text) implements ValueTest {
        @Override
        public boolean test(Object value) {
            return value instanceof String && ((String) value).equalsIgnoreCase(text);
        }
    }

    /** {@code numeric}: a range with optional bounds, {@code =} (a range of one value), or {@code !=}. */
    record Numeric(double lower, boolean lowerInclusive, double upper, boolean upperInclusive, boolean negated)
            implements ValueTest {
        @Override
        public boolean test(Object value) {
            if (!(value instanceof Number)) {
                return false;
            }
            double d = number(value);
            boolean in = (lowerInclusive ? d >= lower : d > lower) && (upperInclusive ? d <= upper : d < upper);
            return in != negated;
        }
    }

    /**
     * {@code anything-but}: a value present in the event that is none of the strings and numbers and does not pass
     * {@code except} (a prefix, suffix, equals-ignore-case or wildcard test, or null).
     */
    record AnythingBut(Set<String> strings, Set<Double> numbers, ValueTest except) implements ValueTest {
        @Override
        public boolean test(Object value) {
            if (value instanceof String && strings.contains(value)) {
                return false;
            }
            if (value instanceof Number && numbers.contains(number(value))) {
                return false;
            }
            return except == null || !except.test(value);
        }
    }

    /** Any of several tests (the list forms of {@code anything-but}'s operators). */
    record AnyOf(ValueTest[] tests) implements ValueTest {
        @Override
        public boolean test(Object value) {
            for (ValueTest t : tests) {
                if (t.test(value)) {
                    return true;
                }
            }
            return false;
        }
    }
}
