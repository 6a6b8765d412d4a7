package dev.rsql.planner.functions;

import dev.rsql.planner.functions.FunctionDoc.Category;
import dev.rsql.planner.functions.FunctionDoc.Example;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every documented example runs as SQL with the documented result, and docs/functions.md is up to date. */
class FunctionDocsTest {

    private static final Path DOC = Paths.get("..", "docs", "functions.md");

    @Test
    void everyScalarExampleGivesItsDocumentedResult() throws Exception {
        List<String> sql = new ArrayList<>();
        List<Example> examples = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (FunctionDoc d : BuiltinFunctions.docs()) {
            if (d.category() == Category.TABLE) {
                continue;
            }
            for (Example e : d.examples()) {
                sql.add(e.sql());
                examples.add(e);
                names.add(d.name());
            }
        }
        List<String> actual = FunctionTesting.eval(sql);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < sql.size(); i++) {
            if (examples.get(i).checked() && !examples.get(i).result().equals(actual.get(i))) {
                wrong.add(names.get(i) + ": " + sql.get(i) + " gave " + actual.get(i) + ", documented "
                        + examples.get(i).result());
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(sql.size() > 150, "examples: " + sql.size());
    }

    @Test
    void everyTableFunctionExampleGivesItsDocumentedRows() throws Exception {
        for (FunctionDoc d : BuiltinFunctions.docs()) {
            if (d.category() != Category.TABLE) {
                continue;
            }
            for (Example e : d.examples()) {
                assertEquals(List.of(e.result().split("\n", -1)), FunctionTesting.table(e.sql()), e.sql());
            }
        }
    }

    @Test
    void everyFunctionIsDocumentedWithAnExample() {
        for (FunctionDoc d : BuiltinFunctions.docs()) {
            assertTrue(!d.examples().isEmpty(), d.name() + " has no example");
            assertTrue(!d.signatures().isEmpty(), d.name() + " has no signature");
        }
    }

    @Test
    void docsFileIsGeneratedFromTheRegistry() throws Exception {
        String expected = FunctionDocs.render();
        if (Boolean.getBoolean("rsql.docs.write")) {
            Files.writeString(DOC, expected, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(DOC), DOC.toAbsolutePath() + " is missing: run this test with -Drsql.docs.write=true");
        assertEquals(expected, Files.readString(DOC, StandardCharsets.UTF_8),
                "docs/functions.md is stale: run FunctionDocsTest with -Drsql.docs.write=true");
    }
}
