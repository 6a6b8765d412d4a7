package dev.rsql.runtime.event;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The index finds exactly the patterns that match on their own, for every event. */
class EventPatternIndexTest {

    private static void assertSameAsEachPattern(List<String> patterns, List<String> events) {
        List<EventPattern> compiled = new ArrayList<>();
        for (String p : patterns) {
            compiled.add(EventPattern.compile(p));
        }
        EventPatternIndex index = EventPatternIndex.of(compiled);
        EventPatternIndex.Matcher matcher = index.matcher();
        int[] out = new int[compiled.size()];
        int total = 0;
        for (String e : events) {
            Object event = EventPattern.parseEvent(e);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < compiled.size(); i++) {
                if (compiled.get(i).matches(event)) {
                    expected.add(i);
                }
            }
            int n = matcher.match(event, out);
            List<Integer> actual = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                actual.add(out[i]);
            }
            assertEquals(expected, actual, e);
            total += n;
        }
        assertTrue(total > 0, "some events match some patterns");
    }

    @Test
    void theConformancePatternsOnTheirEvents() throws Exception {
        Set<String> patterns = new LinkedHashSet<>();
        Set<String> events = new LinkedHashSet<>();
        try (InputStream in = getClass().getResourceAsStream("/event-patterns/conformance.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] f = line.split("\t");
                    patterns.add(f[1]);
                    events.add(f[2]);
                }
            }
        }
        assertSameAsEachPattern(new ArrayList<>(patterns), new ArrayList<>(events));
    }

    @Test
    void generatedPatternsOnGeneratedEvents() {
        Random r = new Random(2026);
        String[] sources = {"shop", "auth", "iot", "billing", "风控"};
        List<String> patterns = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            StringBuilder p = new StringBuilder("{");
            if (r.nextInt(10) > 0) {
                p.append("\"source\":[\"").append(sources[r.nextInt(sources.length)]).append("\"],");
            }
            if (r.nextInt(4) > 0) {
                p.append("\"type\":[\"t").append(r.nextInt(300)).append("\",\"t").append(r.nextInt(300)).append("\"],");
            } else {
                p.append("\"type\":[{\"prefix\":\"t").append(r.nextInt(30)).append("\"}],");
            }
            p.append("\"data\":{");
            switch (r.nextInt(7)) {
                case 0 -> p.append("\"amount\":[{\"numeric\":[\">\",").append(r.nextInt(1000)).append("]}]");
                case 5 -> p.append("\"ip\":[{\"cidr\":\"10.").append(r.nextInt(8)).append(".0.0/")
                        .append(12 + r.nextInt(13)).append("\"},\"2001:db8::").append(r.nextInt(8)).append("\"]");
                case 6 -> p.append("\"user\":[{\"prefix\":\"u").append(r.nextInt(3)).append("\"},\"v1\"]");
                case 1 -> p.append("\"level\":[").append(r.nextInt(5)).append("]");
                case 2 -> p.append("\"tags\":[\"g").append(r.nextInt(50)).append("\"]");
                case 3 -> p.append("\"ok\":[").append(r.nextBoolean()).append("]");
                default -> p.append("\"user\":[{\"anything-but\":\"u").append(r.nextInt(20)).append("\"}]");
            }
            p.append("}}");
            patterns.add(p.toString());
        }
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            events.add("{\"source\":\"" + sources[r.nextInt(sources.length)] + "\",\"type\":\"t" + r.nextInt(300)
                    + "\",\"data\":{\"amount\":" + r.nextInt(1000) + ".5,\"level\":" + r.nextInt(5) + ".0,\"tags\":[\"g"
                    + r.nextInt(50) + "\",\"g" + r.nextInt(50) + "\"],\"ok\":" + r.nextBoolean() + ",\"user\":\"u"
                    + r.nextInt(20) + "\",\"ip\":\"" + (r.nextBoolean() ? "10." + r.nextInt(8) + "." + r.nextInt(256) + ".1"
                    : "2001:db8::" + r.nextInt(8)) + "\"}}");
        }
        assertSameAsEachPattern(patterns, events);
        int unanchored = EventPatternIndex.of(patterns.stream().map(EventPattern::compile).toList()).unanchored();
        assertTrue(unanchored < patterns.size() / 10, "patterns without an anchor: " + unanchored);
    }
}
