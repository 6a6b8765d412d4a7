import dev.rsql.runtime.event.EventPattern;
import dev.rsql.runtime.event.EventPatternIndex;
import software.amazon.event.ruler.GenericMachine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One run of bench/events_bench.py: matches CloudEvents (structured JSON) against N patterns of a realistic mix on
 * one thread, with RSQL's pattern index or AWS event-ruler's machine, and prints one line of figures. Events and
 * patterns come from a fixed seed, so both engines see the same ones.
 *
 * Usage: java -cp lib/*:EVENT_RULER_CLASSPATH bench/EventsBench.java rsql|ruler PATTERNS EVENTS
 *        java -cp lib/*:EVENT_RULER_CLASSPATH bench/EventsBench.java write PATTERNS EVENTS DIR
 *        (a script of EVENT_MATCHES rules and its events for bin/rsql; the patterns differ from the other
 *        modes', which draw events first)
 */
public class EventsBench {

    static final String[] SOURCES = new String[20];
    static final String[] REGIONS = {"cn-hangzhou", "cn-beijing", "cn-shanghai", "us-west-1", "eu-central-1"};
    static final String[] STATUS = {"NEW", "PAID", "SHIPPED", "CANCELLED", "REFUNDED"};

    static {
        for (int i = 0; i < SOURCES.length; i++) {
            SOURCES[i] = "acs.service" + i;
        }
    }

    static String type(Random r) {
        return "com.example.event" + r.nextInt(200);
    }

    /** A CloudEvent in structured mode: attributes and a JSON data object. */
    static String event(Random r, int i) {
        return "{\"specversion\":\"1.0\",\"id\":\"ev-" + i + "\",\"source\":\"" + SOURCES[r.nextInt(SOURCES.length)]
                + "\",\"type\":\"" + type(r) + "\",\"time\":\"2026-12-07T10:00:00Z\",\"datacontenttype\":"
                + "\"application/json\",\"data\":{\"orderId\":" + r.nextInt(1_000_000) + ",\"amount\":"
                + r.nextInt(2000) + "." + r.nextInt(100) + ",\"region\":\"" + REGIONS[r.nextInt(REGIONS.length)]
                + "\",\"status\":\"" + STATUS[r.nextInt(STATUS.length)] + "\",\"user\":{\"id\":\"u" + r.nextInt(5000)
                + "\",\"vip\":" + (r.nextInt(10) == 0) + ",\"ip\":\"10." + r.nextInt(256) + "." + r.nextInt(256) + "."
                + r.nextInt(256) + "\"},\"tags\":[\"t" + r.nextInt(100) + "\",\"t" + r.nextInt(100) + "\"]}}";
    }

    /** A rule as routing teams write them: source and type, then one or two conditions on the data. */
    static String pattern(Random r) {
        StringBuilder p = new StringBuilder("{\"source\":[\"").append(SOURCES[r.nextInt(SOURCES.length)]).append("\"]");
        if (r.nextInt(5) > 0) {
            p.append(",\"type\":[\"").append(type(r)).append("\",\"").append(type(r)).append("\"]");
        } else {
            p.append(",\"type\":[{\"prefix\":\"com.example.event").append(r.nextInt(20)).append("\"}]");
        }
        // one or two distinct conditions on the data; the user's conditions share one nested object
        int first = r.nextInt(6);
        int second = r.nextBoolean() ? -1 : (first + 1 + r.nextInt(5)) % 6;
        List<String> data = new ArrayList<>();
        List<String> user = new ArrayList<>();
        for (int c : new int[] {first, second}) {
            switch (c) {
                case -1 -> { }
                case 0 -> data.add("\"amount\":[{\"numeric\":[\">=\"," + r.nextInt(2000) + "]}]");
                case 1 -> data.add("\"region\":[\"" + REGIONS[r.nextInt(REGIONS.length)] + "\"]");
                case 2 -> data.add("\"status\":[{\"anything-but\":[\"CANCELLED\",\"REFUNDED\"]}]");
                case 3 -> user.add("\"vip\":[true]");
                case 4 -> user.add("\"ip\":[{\"cidr\":\"10." + r.nextInt(256) + ".0.0/16\"}]");
                default -> data.add("\"tags\":[\"t" + r.nextInt(100) + "\"]");
            }
        }
        if (!user.isEmpty()) {
            data.add("\"user\":{" + String.join(",", user) + "}");
        }
        p.append(",\"data\":{").append(String.join(",", data));
        return p.append("}}").toString();
    }

    /** Mode {@code write}: the events as a JSON-lines file and the patterns as a script of EVENT_MATCHES rules. */
    static void write(int patternCount, int eventCount, Path dir) throws Exception {
        Random r = new Random(42);
        StringBuilder script = new StringBuilder("CREATE TABLE bus (event STRING) WITH ('connector' = 'filesystem',"
                + " 'path' = '" + dir.resolve("events.jsonl") + "', 'format' = 'raw');\n");
        for (int i = 0; i < patternCount; i++) {
            script.append("CREATE TABLE r").append(i).append(" (event STRING) WITH ('connector' = 'blackhole');\n")
                    .append("INSERT INTO r").append(i).append(" SELECT event FROM bus WHERE EVENT_MATCHES(event, '")
                    .append(pattern(r)).append("');\n");
        }
        Files.writeString(dir.resolve("rules_" + patternCount + ".sql"), script);
        StringBuilder events = new StringBuilder();
        for (int i = 0; i < eventCount; i++) {
            events.append(event(r, i)).append('\n');
        }
        Files.writeString(dir.resolve("events.jsonl"), events);
    }

    public static void main(String[] args) throws Exception {
        String engine = args[0];
        if (engine.equals("write")) {
            write(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Path.of(args[3]));
            return;
        }
        int patternCount = Integer.parseInt(args[1]);
        int eventCount = Integer.parseInt(args[2]);
        Random r = new Random(42);
        List<String> patterns = new ArrayList<>();
        for (int i = 0; i < patternCount; i++) {
            patterns.add(pattern(r));
        }
        // 100,000 distinct events, read in turn until eventCount were matched
        List<String> events = new ArrayList<>();
        for (int i = 0; i < Math.min(eventCount, 100_000); i++) {
            events.add(event(r, i));
        }
        long t0 = System.nanoTime();
        long matches = 0;
        long compileNanos;
        if (engine.equals("rsql")) {
            List<EventPattern> compiled = new ArrayList<>();
            for (String p : patterns) {
                compiled.add(EventPattern.compile(p));
            }
            EventPatternIndex index = EventPatternIndex.of(compiled);
            EventPatternIndex.Matcher matcher = index.matcher();
            int[] out = new int[patternCount];
            compileNanos = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int i = 0; i < eventCount; i++) {
                matches += matcher.match(EventPattern.parseEvent(events.get(i % events.size())), out);
            }
        } else {
            GenericMachine<Integer> machine = new GenericMachine<>();
            for (int i = 0; i < patternCount; i++) {
                machine.addRule(i, patterns.get(i));
            }
            compileNanos = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int i = 0; i < eventCount; i++) {
                matches += machine.rulesForJSONEvent(events.get(i % events.size())).size();
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long hwm = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                hwm = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        System.out.printf("engine=%s patterns=%d events=%d seconds=%.2f events_per_s=%.0f matches=%d compile_s=%.2f"
                        + " peak_rss_mb=%d%n", engine, patternCount, eventCount, seconds, eventCount / seconds, matches,
                compileNanos / 1e9, hwm);
    }
}
