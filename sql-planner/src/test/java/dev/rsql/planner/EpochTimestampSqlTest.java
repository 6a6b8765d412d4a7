package dev.rsql.planner;

import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static dev.rsql.planner.testing.TestJob.source;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Epoch numbers read into TIMESTAMP columns (rsqldb's event times) become wall-clock times in the job's
 * {@code table.local-time-zone}, as Flink's {@code CAST(TO_TIMESTAMP_LTZ(ms, 3) AS TIMESTAMP(3))}; text timestamps and
 * TIMESTAMP_LTZ columns are not shifted.
 */
class EpochTimestampSqlTest {

    // 2024-03-01T16:30:00Z: already March 2nd in Shanghai, still March 1st in New York
    private static final long T = 1709310600000L;

    private static List<String> read(String prelude, String id) throws Exception {
        ValuesSourceFactory.register(id, List.of(
                "{\"ts\":" + T + ",\"txt\":\"2024-03-01 16:30:00\",\"ltz\":" + T + "}",
                "{\"ts\":\"" + T + "\",\"txt\":\"2024-03-01 16:30:00\",\"ltz\":\"" + T + "\"}"));
        String script = prelude + source(id, "ts TIMESTAMP(3), txt TIMESTAMP(3), ltz TIMESTAMP_LTZ(3)")
                + sink("o", "ts VARCHAR, txt VARCHAR, ltz VARCHAR, d VARCHAR, wall VARCHAR")
                + "INSERT INTO o SELECT CAST(ts AS VARCHAR), CAST(txt AS VARCHAR), CAST(ltz AS VARCHAR), "
                + "CAST(CAST(ts AS DATE) AS VARCHAR), CAST(CAST(ltz AS TIMESTAMP(3)) AS VARCHAR) FROM " + id;
        return rows(run(script, "o").get("o"));
    }

    @Test
    void epochNumbersAreReadAsWallClockTimesOfTheLocalTimeZone() throws Exception {
        String shanghai = "[2024-03-02 00:30:00.000, 2024-03-01 16:30:00.000, 2024-03-02 00:30:00.000, 2024-03-02, "
                + "2024-03-02 00:30:00.000]";
        assertEquals(List.of(shanghai, shanghai), read("SET 'table.local-time-zone' = 'Asia/Shanghai';\n", "ept1"));
        // Blink's name for it, as the functions read it
        assertEquals(List.of(shanghai, shanghai), read("SET 'blink.job.timeZone' = 'Asia/Shanghai';\n", "ept5"));
        String utc = "[2024-03-01 16:30:00.000, 2024-03-01 16:30:00.000, 2024-03-01 16:30:00.000, 2024-03-01, "
                + "2024-03-01 16:30:00.000]";
        assertEquals(List.of(utc, utc), read("SET 'table.local-time-zone' = 'UTC';\n", "ept2"));
        String newYork = "[2024-03-01 11:30:00.000, 2024-03-01 16:30:00.000, 2024-03-01 11:30:00.000, 2024-03-01, "
                + "2024-03-01 11:30:00.000]";
        assertEquals(List.of(newYork, newYork), read("SET 'table.local-time-zone' = 'America/New_York';\n", "ept3"));
    }

    /** A day's TUMBLE window over epoch event times is the local calendar day, as rsqldb users expect. */
    @Test
    void windowsOverEpochEventTimesFollowTheLocalDay() throws Exception {
        ValuesSourceFactory.register("ept4", List.of("{\"k\":\"a\",\"ts\":" + (T - 3_600_000L) + "}",
                "{\"k\":\"a\",\"ts\":" + T + "}"));
        String script = "SET 'table.local-time-zone' = 'Asia/Shanghai';\n"
                + "CREATE TABLE ept4 (k VARCHAR, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                + "WITH (type = 'values', id = 'ept4');\n"
                + sink("o", "k VARCHAR, ws VARCHAR, c BIGINT")
                + "INSERT INTO o SELECT k, CAST(window_start AS VARCHAR), COUNT(*) FROM TABLE(TUMBLE(TABLE ept4, "
                + "DESCRIPTOR(ts), INTERVAL '1' DAY)) GROUP BY k, window_start, window_end";
        // 16:30Z is 00:30 on March 2nd in Shanghai, 15:30Z is 23:30 on March 1st: two local days
        assertEquals(List.of("[a, 2024-03-01 00:00:00.000, 1]", "[a, 2024-03-02 00:00:00.000, 1]"),
                rows(run(script, "o").get("o")));
    }
}
