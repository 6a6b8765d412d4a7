package dev.rsql.planner;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.rsql.runtime.connector.blackhole.BlackholeSink;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code blackhole} sink takes an updating query without a primary key and counts what it discards. */
class BlackholeSinkSqlTest {

    @Test
    void discardsAnyChangelogAndCountsItsRowsByKind() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(BlackholeSink.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        Map<String, List<Row>> out;
        try {
            String select = " SELECT k, COUNT(*) FROM ev GROUP BY k;\n";
            out = run(RandomEvents.eventTable(RandomEvents.generate(7, 2, 300))
                    + "CREATE TABLE hole (k VARCHAR, n BIGINT) WITH ('connector' = 'blackhole');\n"
                    + sink("same", "k VARCHAR, n BIGINT")
                    + "INSERT INTO hole" + select + "INSERT INTO same" + select, "same");
        } finally {
            logger.detachAppender(appender);
        }
        Map<RowKind, Long> kinds = out.get("same").stream()
                .collect(Collectors.groupingBy(Row::kind, Collectors.counting()));
        assertTrue(kinds.get(RowKind.UPDATE_BEFORE) > 0, "the query is updating: " + kinds);
        String expected = "blackhole sink hole discarded " + out.get("same").size() + " rows (+I "
                + kinds.get(RowKind.INSERT) + ", -U " + kinds.get(RowKind.UPDATE_BEFORE) + ", +U "
                + kinds.get(RowKind.UPDATE_AFTER) + ")";
        List<String> logged;
        synchronized (appender.list) {
            logged = appender.list.stream().map(ILoggingEvent::getFormattedMessage).collect(Collectors.toList());
        }
        assertEquals(1, logged.size(), String.valueOf(logged));
        assertTrue(logged.get(0).endsWith(expected), logged.get(0) + " should end with " + expected);
    }
}
