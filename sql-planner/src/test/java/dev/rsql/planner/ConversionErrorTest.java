package dev.rsql.planner;

import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static dev.rsql.planner.testing.TestJob.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A value that an explicit CAST cannot convert: the error names the table, the column and the record. */
class ConversionErrorTest {

    @Test
    void underFailTheJobStopsNamingTableColumnAndRecord() throws Exception {
        ValuesSourceFactory.register("cities", List.of("{\"id\":1,\"code\":\"0755\"}",
                "{\"id\":2,\"code\":\"shenzhen\"}", "{\"id\":3,\"code\":\"010\"}"));
        JobInstance job = new TestJob("t", source("cities", "id INT, code VARCHAR") + sink("o", "id INT, code BIGINT")
                + "INSERT INTO o SELECT id, CAST(code AS BIGINT) FROM cities").job();
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)));
        Throwable failure = job.failure();
        assertNotNull(failure, "the job fails");
        String m = failure.getMessage();
        assertTrue(m.contains("table cities"), m);
        assertTrue(m.contains("column code is not a valid BIGINT"), m);
        assertTrue(m.contains("CAST('shenzhen')"), m);
        assertTrue(m.contains("record at values cities-0, record 1"), m);
    }

    @Test
    void underSkipTheRecordIsSkippedAndTheOthersConvert() throws Exception {
        ValuesSourceFactory.register("amounts", List.of("{\"id\":1,\"v\":\"1.5\"}", "{\"id\":2,\"v\":\"n/a\"}",
                "{\"id\":3,\"v\":\" 2 \"}", "{\"id\":4,\"v\":null}"));
        Map<String, List<Row>> out = run("CREATE TABLE amounts (id INT, v VARCHAR) WITH (type = 'values', "
                + "id = 'amounts', 'scan.error-policy' = 'skip');\n" + sink("o", "id INT, v DECIMAL(5, 2), d DOUBLE")
                + "INSERT INTO o SELECT id, CAST(v AS DECIMAL(5, 2)), CAST(v AS DOUBLE) FROM amounts", "o");
        assertEquals(List.of("[1, 1.50, 1.5]", "[3, 2.00, 2.0]", "[4, null, null]"), rows(out.get("o")));
    }
}
