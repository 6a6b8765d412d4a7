package dev.rsql.conformance;

import dev.rsql.runtime.exec.StateBackendType;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The project's own cases with rows computed by Apache Flink (src/test/resources/oracle-cases; their README says how
 * they are made): each case's rsql.sql runs through the engine and its sinks must hold Flink's rows.
 */
class OracleCasesTest {

    @TestFactory
    Stream<DynamicTest> oracleCases() throws IOException {
        Path dir = Path.of("src", "test", "resources", "oracle-cases").toAbsolutePath();
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> cases = Files.list(dir)) {
            for (Path c : (Iterable<Path>) cases.filter(Files::isDirectory).sorted()::iterator) {
                for (StateBackendType state : StateBackendType.values()) {
                    tests.add(DynamicTest.dynamicTest(c.getFileName() + " [" + state + "]",
                            () -> ConformanceTest.runCase(c, "rsql.sql", Path.of("target", "oracle-cases"), state)));
                }
            }
        }
        assertFalse(tests.isEmpty(), "no cases under " + dir);
        return tests.stream();
    }
}
