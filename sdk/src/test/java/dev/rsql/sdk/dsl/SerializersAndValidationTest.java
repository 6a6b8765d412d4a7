package dev.rsql.sdk.dsl;

import dev.rsql.planner.PlanningException;
import dev.rsql.runtime.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Payloads read and written by user functions, and connector options checked before a topology runs. */
class SerializersAndValidationTest {

    @TempDir
    Path tmp;

    record Reading(String sensor, int value) {
    }

    @Test
    void aDeserializerAndASerializerReadAndWriteWholePayloads() throws Exception {
        Random random = new Random(41);
        List<String> lines = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            Reading r = new Reading("s" + random.nextInt(4), random.nextInt(1000));
            lines.add(r.sensor() + "|" + r.value());
            if (r.value() % 2 == 0) {
                expected.add(r.value() + "@" + r.sensor());
            }
        }
        Path in = Files.write(tmp.resolve("in.txt"), lines);
        Path out = tmp.resolve("out.txt");
        StreamBuilder b = new StreamBuilder("serdes");
        b.source("readings", Map.of("connector", "file", "path", in.toString()), Reading.class, line -> {
            String[] parts = line.split("\\|");
            return new Reading(parts[0], Integer.parseInt(parts[1]));
        }).filter(r -> r.value() % 2 == 0)
                .to("out", Map.of("connector", "file", "path", out.toString()), r -> r.value() + "@" + r.sensor());
        TopologyRunner.run(b.build(), tmp.resolve("state"));
        List<String> written = new ArrayList<>(Files.readAllLines(out));
        written.sort(null);
        expected.sort(null);
        assertEquals(expected, written);
    }

    @Test
    void aSerializedTableIsRaw() {
        StreamBuilder b = new StreamBuilder("not-raw");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.source("t",
                Map.of("connector", "file", "path", "x", "format", "json"), Reading.class, s -> null));
        assertTrue(e.getMessage().contains("'raw'"), e.getMessage());
    }

    /** The source's error policy is read as a script's is: the same option names and the same message. */
    @Test
    void anUnknownErrorPolicyIsRefusedNamingTheOption() {
        StreamBuilder b = new StreamBuilder("policy");
        ConfigException e = assertThrows(ConfigException.class, () -> b.source("t", Reading.class,
                Map.of("connector", "file", "path", "x", "format", "json", "scan.error-policy", "sometimes")));
        assertEquals("scan.error-policy", e.option());
        assertTrue(e.getMessage().contains("must be 'fail' or 'skip', got 'sometimes'"), e.getMessage());
    }

    @Test
    void connectorOptionsAreCheckedBeforeTheJobRuns() {
        StreamBuilder b = new StreamBuilder("checked");
        b.source("events", Reading.class, Map.of("connector", "rocketmq", "format", "json"))
                .to("out", Map.of("connector", "print", "no.such.option", "1"));
        Topology t = b.build();
        PlanningException missing = assertThrows(PlanningException.class,
                () -> t.validate(Map.of("rocketmq.namesrv", "127.0.0.1:9876"), getClass().getClassLoader()));
        assertTrue(missing.getMessage().contains("table events") && missing.getMessage().contains("topic"),
                missing.getMessage());

        StreamBuilder ok = new StreamBuilder("checked");
        ok.source("events", Reading.class, Map.of("connector", "rocketmq", "topic", "t", "format", "json"))
                .to("out", Map.of("connector", "print", "no.such.option", "1"));
        List<String> warnings = ok.build().validate(Map.of("rocketmq.namesrv", "127.0.0.1:9876"),
                getClass().getClassLoader());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("no.such.option"), warnings.get(0));
    }
}
