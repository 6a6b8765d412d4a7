package dev.rsql.runtime.event;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A malformed pattern is refused with the line and column of the mistake in the pattern's text. */
class EventPatternErrorsTest {

    private static void refused(String pattern, String message) {
        EventPatternException e = assertThrows(EventPatternException.class, () -> EventPattern.compile(pattern));
        assertEquals(message, e.getMessage());
    }

    @Test
    void jsonMistakes() {
        refused("{\"a\": [\"x\"]", "line 1, column 12: unexpected end of the pattern; expected '}'");
        refused("{\"a\": ['x']}", "line 1, column 8: strings in a pattern are written in double quotes");
        refused("{\"a\": [\"x\",]}", "line 1, column 12: unexpected ']'; expected a value");
        refused("{a: [\"x\"]}", "line 1, column 2: expected a field name in double quotes, found 'a'");
        refused("{\"a\": [\"x\"]} x", "line 1, column 14: unexpected 'x' after the pattern");
        refused("{\"a\": [01]}", "line 1, column 8: malformed number: a number does not start with 0 followed by digits");
        refused("{\"a\": [\"x\"], \"a\": [\"y\"]}", "line 1, column 14: field \"a\" appears twice in one object");
        refused("{\n  \"城市\": [\"北京\"],\n  \"n\": [tru]\n}", "line 3, column 9: unexpected 'tru'; expected a value");
        refused("[\"x\"]", "line 1, column 1: a pattern is a JSON object, e.g. {\"source\": [\"orders\"]}; found an array");
    }

    @Test
    void patternMistakes() {
        refused("{\"a\": \"x\"}", "line 1, column 7: the conditions of field \"a\" are a JSON array, e.g. [\"x\"];"
                + " found the string \"x\"");
        refused("{\"a\": []}", "line 1, column 7: an empty list of conditions matches nothing");
        refused("{\"a\": [[\"x\"]]}", "line 1, column 8: a condition is a value or an operator object, not an array");
        refused("{\"a\": [{\"prefx\": \"x\"}]}", "line 1, column 9: unknown operator \"prefx\" (did you mean \"prefix\"?)");
        refused("{\"a\": [{}]}", "line 1, column 8: an empty object is no condition; write an operator such as"
                + " {\"prefix\": \"x\"}");
        refused("{\"a\": [{\"prefix\": \"x\", \"suffix\": \"y\"}]}",
                "line 1, column 8: an operator object has one operator, found 2");
        refused("{\"a\": [{\"prefix\": 1}]}", "line 1, column 19: prefix takes a string, found the number 1");
        refused("{\"a\": [{\"exists\": \"yes\"}]}",
                "line 1, column 19: exists takes true or false, found the string \"yes\"");
        refused("{\"a\": [{\"wildcard\": \"a**b\"}]}",
                "line 1, column 21: two '*' in a row in a wildcard (at character 2 of \"a**b\")");
        refused("{\"a\": [{\"wildcard\": \"a\\\\b\"}]}",
                "line 1, column 21: a backslash in a wildcard escapes only '*' or '\\' (at character 2 of \"a\\b\")");
        refused("{\"a\": [{\"numeric\": [\">\", 5, \"<\", 1]}]}",
                "line 1, column 20: the lower bound of numeric must be below its upper bound");
        refused("{\"a\": [{\"numeric\": [\"<\", 5, \">\", 1]}]}", "line 1, column 21: numeric with two comparisons"
                + " takes the lower bound first, e.g. [\">\", 0, \"<=\", 5]");
        refused("{\"a\": [{\"numeric\": [\">\", 0, \">\", 5]}]}", "line 1, column 29: numeric has two lower bounds");
        refused("{\"a\": [{\"numeric\": [\"~\", 5]}]}",
                "line 1, column 21: unknown comparison \"~\"; use =, !=, <, <=, > or >=");
        refused("{\"a\": [{\"numeric\": [\">\", \"5\"]}]}",
                "line 1, column 26: numeric compares with a number, found the string \"5\"");
        refused("{\"a\": [{\"anything-but\": [\"a\", 1]}]}",
                "line 1, column 31: anything-but lists either strings or numbers, not both");
        refused("{\"a\": [{\"anything-but\": []}]}", "line 1, column 25: anything-but needs at least one value");
        refused("{\"a\": [{\"anything-but\": {\"numeric\": [\">\", 1]}}]}",
                "line 1, column 26: anything-but takes prefix, suffix, equals-ignore-case or wildcard, not numeric");
        refused("{\"a\": [{\"cidr\": \"10.0.0.0/33\"}]}",
                "line 1, column 17: cidr \"10.0.0.0/33\": the prefix length must be 0 to 32");
        refused("{\"a\": [{\"cidr\": \"example.com\"}]}",
                "line 1, column 17: cidr \"example.com\" is not an IPv4 or IPv6 address or network");
        refused("{\"$or\": [{\"a\": [\"x\"]}]}", "line 1, column 9: $or needs at least two patterns");
        refused("{\"a..b\": [\"x\"]}", "line 1, column 2: field name \"a..b\" has an empty part between dots");
    }
}
