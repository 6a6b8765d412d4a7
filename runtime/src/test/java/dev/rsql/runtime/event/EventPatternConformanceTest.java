package dev.rsql.runtime.event;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The (pattern, event, matches?) cases of {@code event-patterns/conformance.tsv}, written from event-ruler 2.0.1's
 * documented semantics: every operator, their combinations, arrays, nulls, numbers written differently and missing
 * fields.
 */
class EventPatternConformanceTest {

    @Test
    void everyCaseGivesTheDocumentedAnswer() throws Exception {
        List<String> failures = new ArrayList<>();
        int cases = 0;
        int matching = 0;
        try (InputStream in = getClass().getResourceAsStream("/event-patterns/conformance.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                assertEquals(3, f.length, line);
                boolean expected = f[0].equals("Y");
                boolean actual = EventPattern.compile(f[1]).matches(EventPattern.parseEvent(f[2]));
                if (actual != expected) {
                    failures.add((expected ? "should match:     " : "should not match: ") + f[1] + "  on  " + f[2]);
                }
                cases++;
                matching += expected ? 1 : 0;
            }
        }
        assertTrue(cases >= 150, "cases: " + cases);
        assertTrue(matching > cases / 3 && matching < cases * 2 / 3, "matching cases: " + matching + " of " + cases);
        assertEquals(List.of(), failures);
    }
}
