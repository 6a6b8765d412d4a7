package dev.rsql.planner;

import dev.rsql.planner.functions.LikeMatcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LikeMatcherTest {

    @ParameterizedTest(name = "''{1}'' LIKE ''{0}'' = {2}")
    @CsvSource(delimiter = '|', value = {
            "abc|abc|true", "abc|abcd|false", "abc%|abcd|true", "abc%|xabc|false", "%abc|xabc|true",
            "%abc|abcx|false", "%abc%|xxabcxx|true", "%abc%|ab|false", "%|''|true", "%|anything|true",
            "a_c|abc|true", "a_c|abbc|false", "a%c|abbbc|true", "a%c|abbb|false", "%a%b%|xaxbx|true",
            "%a%b%|xbxax|false", "''|''|true", "''|a|false", "a.c|abc|false", "a.c|a.c|true", "(x)%|(x)y|true"})
    void matchesLikeSql(String pattern, String value, boolean expected) {
        assertEquals(expected, LikeMatcher.compile(pattern, null).matches(value));
    }

    @Test
    void wildcardsMatchLineBreaks() {
        assertTrue(LikeMatcher.compile("a%b_", null).matches("a\nb\n"));
    }

    @ParameterizedTest(name = "''{1}'' LIKE ''{0}'' ESCAPE ''!'' = {2}")
    @CsvSource(delimiter = '|', value = {"100!%|100%|true", "100!%|1000|false", "a!_c|a_c|true", "a!_c|abc|false",
            "%!%|50%|true"})
    void honoursTheEscapeCharacter(String pattern, String value, boolean expected) {
        assertEquals(expected, LikeMatcher.compile(pattern, "!").matches(value));
    }
}
