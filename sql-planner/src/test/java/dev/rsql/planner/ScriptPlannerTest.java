package dev.rsql.planner;

import dev.rsql.planner.catalog.CatalogTable;
import dev.rsql.planner.catalog.ScriptCatalog;
import dev.rsql.planner.catalog.TableColumn;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.graph.CalcNode;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.GroupAggregateNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.RuleSetNode;
import dev.rsql.runtime.graph.SinkNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.graph.UnionNode;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScriptPlannerTest {

    static final String ORDERS = "CREATE TABLE orders (\n"
            + "  order_id BIGINT, product VARCHAR, amount DOUBLE, qty INT, status VARCHAR, ts TIMESTAMP\n"
            + ") WITH (type = 'values', id = 'orders');\n";

    static JobGraph plan(String script) {
        return new ScriptPlanner(PlannerContext.defaults()).plan("test", script).graph();
    }

    static <T extends GraphNode> List<T> nodes(JobGraph g, Class<T> kind) {
        return g.nodes().stream().filter(kind::isInstance).map(kind::cast).collect(Collectors.toList());
    }

    @Test
    void filterAndProjectionBecomeOneCalcBetweenSourceAndSink() {
        JobGraph g = plan(ORDERS
                + "CREATE TABLE out1 (order_id BIGINT, total DOUBLE) WITH (type = 'collect');\n"
                + "INSERT INTO out1 SELECT order_id, amount * qty AS total FROM orders WHERE status <> 'CANCELLED';");
        assertEquals(List.of("Source", "Calc", "Sink"),
                g.nodes().stream().map(GraphNode::kind).collect(Collectors.toList()));
        CalcNode calc = nodes(g, CalcNode.class).get(0);
        assertTrue(calc.describe().contains("where"), calc.describe());
        assertEquals(List.of("order_id", "total"), calc.outputType().names());
        assertEquals(calc, nodes(g, SinkNode.class).get(0).input());
    }

    @Test
    void aShellPlansPiecesOneByOneDeclaresWithoutInsertsAndChoosesTheSinkOfABareSelect() {
        ScriptPlanner planner = new ScriptPlanner(PlannerContext.defaults());
        PlanningException e = assertThrows(PlanningException.class,
                () -> planner.plan("test", List.of(ORDERS, "SELECT order_id,\n  nope FROM orders")));
        assertEquals(2, e.position().getLineNum(), e.getMessage());
        assertEquals(3, e.position().getColumnNum(), e.getMessage());

        ScriptCatalog declared = planner.declare(List.of(ORDERS, "SELECT order_id, amount * qty AS total FROM orders"));
        CatalogTable result = declared.tables().stream().filter(t -> t.name().startsWith("$select_")).findFirst()
                .orElseThrow();
        assertEquals(List.of("order_id", "total"), result.columns().stream().map(TableColumn::name).toList());
        e = assertThrows(PlanningException.class, () -> planner.declare(List.of("CREATE TABLE g (x INT) WITH (\n"
                + "  'connector' = 'datagen', 'number-of-rows' = 'ten')")));
        assertTrue(e.getMessage().startsWith("line 2, column 28: table g: option 'number-of-rows'"), e.getMessage());

        JobGraph g = planner.withSelectSink(Map.of("connector", "blackhole"))
                .plan("test", List.of(ORDERS, "SELECT order_id FROM orders")).graph();
        assertEquals("blackhole", nodes(g, SinkNode.class).get(0).table().connector());
    }

    @Test
    void insertsReadingOneTableShareOneSource() {
        String inserts = ORDERS
                + "CREATE TABLE a (order_id BIGINT) WITH (type = 'collect');\n"
                + "CREATE TABLE b (product VARCHAR) WITH (type = 'collect');\n"
                + "INSERT INTO a SELECT order_id FROM orders WHERE amount > 10;\n"
                + "INSERT INTO b SELECT product FROM orders WHERE qty > 1;\n";
        // one calc per INSERT, both reading the one source
        JobGraph g = plan("SET '" + ScriptPlanner.RULE_SET + "' = 'false';\n" + inserts);
        List<SourceNode> sources = nodes(g, SourceNode.class);
        assertEquals(1, sources.size());
        assertEquals(2, g.downstreamOf(sources.get(0)).size());
        assertEquals(2, nodes(g, SinkNode.class).size());
        assertTrue(g.explain().contains("source-orders"), g.explain());
        // by default the two filters run as one rule set behind the source
        JobGraph fused = plan(inserts);
        List<SourceNode> source = nodes(fused, SourceNode.class);
        assertEquals(1, source.size());
        assertEquals(List.of(RuleSetNode.class), fused.downstreamOf(source.get(0)).stream().map(Object::getClass)
                .collect(java.util.stream.Collectors.toList()));
        assertEquals(2, ((RuleSetNode) fused.downstreamOf(source.get(0)).get(0)).rules().size());
        assertEquals(2, nodes(fused, SinkNode.class).size());
    }

    @Test
    void insertsIntoOneTableShareOneSinkOverAUnion() {
        JobGraph g = plan(ORDERS
                + "CREATE TABLE flagged (order_id BIGINT, reason VARCHAR) WITH (type = 'collect');\n"
                + "INSERT INTO flagged SELECT order_id, 'big' FROM orders WHERE amount > 380;\n"
                + "INSERT INTO flagged SELECT order_id, 'neg' FROM orders WHERE amount < 0;\n");
        List<SinkNode> sinks = nodes(g, SinkNode.class);
        assertEquals(1, sinks.size());
        assertInstanceOf(UnionNode.class, sinks.get(0).input());
        assertEquals(1, nodes(g, SourceNode.class).size());
    }

    @Test
    void statementSetsInBothSyntaxes() {
        String ddl = ORDERS + "CREATE TABLE a (order_id BIGINT) WITH (type = 'collect');\n"
                + "CREATE TABLE b (order_id BIGINT) WITH (type = 'collect');\n";
        JobGraph g1 = plan(ddl + "EXECUTE STATEMENT SET BEGIN\n"
                + "INSERT INTO a SELECT order_id FROM orders;\nINSERT INTO b SELECT order_id FROM orders;\nEND;");
        JobGraph g2 = plan(ddl + "BEGIN STATEMENT SET;\n"
                + "INSERT INTO a SELECT order_id FROM orders;\nINSERT INTO b SELECT order_id FROM orders;\nEND;");
        assertEquals(2, nodes(g1, SinkNode.class).size());
        assertEquals(2, nodes(g2, SinkNode.class).size());
    }

    @Test
    void unionAllOfTwoSourcesAndAView() {
        JobGraph g = plan(ORDERS
                + "CREATE TABLE app_orders (order_id BIGINT, amount DOUBLE) WITH ('connector' = 'values', 'id' = 'app');\n"
                + "CREATE VIEW all_orders (channel, id, amt) AS\n"
                + "  SELECT 'web', order_id, amount FROM orders UNION ALL SELECT 'app', order_id, amount FROM app_orders;\n"
                + "CREATE TABLE out1 (channel VARCHAR, id BIGINT, amt DOUBLE) WITH (type = 'collect');\n"
                + "INSERT INTO out1 SELECT channel, id, amt FROM all_orders WHERE amt > 1;\n");
        assertEquals(2, nodes(g, SourceNode.class).size());
        assertEquals(1, nodes(g, UnionNode.class).size());
    }

    @Test
    void blinkAndFlinkDdlMixInOneScript() {
        JobGraph g = plan("CREATE TABLE blink_src (\n"
                + "  id BIGINT, msg VARCHAR, ts TIMESTAMP, __tag__ VARCHAR HEADER,\n"
                + "  WATERMARK wk FOR ts AS withOffset(ts, 2000)\n"
                + ") WITH (type = 'values', id = 'x', `group.id` = 'g');\n"
                + "CREATE TEMPORARY TABLE IF NOT EXISTS flink_sink (\n"
                + "  id BIGINT, msg STRING, tag STRING, PRIMARY KEY (id) NOT ENFORCED\n"
                + ") WITH ('connector' = 'collect');\n"
                + "INSERT INTO flink_sink SELECT id, msg, __tag__ FROM blink_src;\n");
        SourceNode src = nodes(g, SourceNode.class).get(0);
        assertEquals("values", src.table().connector());
        Column header = src.table().schema().columns().get(3);
        assertTrue(header.isMetadata());
        assertEquals("__tag__", header.metadataKey());
        SinkNode sink = nodes(g, SinkNode.class).get(0);
        assertEquals(List.of("id"), sink.table().schema().primaryKey());
        assertEquals(DataType.Kind.VARCHAR, sink.table().schema().columns().get(1).type().kind());
    }

    @Test
    void computedColumnsAreEvaluatedAfterTheSource() {
        JobGraph g = plan("CREATE TABLE s (price DOUBLE, qty INT, cost AS price * qty, p AS PROCTIME())"
                + " WITH (type = 'values', id = 's');\n"
                + "CREATE TABLE out1 (cost DOUBLE, p TIMESTAMP) WITH (type = 'collect');\n"
                + "INSERT INTO out1 SELECT cost, p FROM s WHERE cost > 10;\n");
        SourceNode src = nodes(g, SourceNode.class).get(0);
        assertEquals(List.of("price", "qty"), src.outputType().names());
        assertEquals(1, nodes(g, CalcNode.class).size());
    }

    @Test
    void placeholdersInOptionsResolveFromSetConfigAndEnvironment() {
        PlannerContext ctx = new PlannerContext(new Options(Map.of("data.dir", "/conf-dir")),
                PlannerContext.class.getClassLoader(), name -> name.equals("TOPIC") ? "env-topic" : null);
        JobGraph g = new ScriptPlanner(ctx).plan("test", "SET 'my.id' = 'from-set';\n"
                + "CREATE TABLE s (a INT) WITH (type = 'values', id = '${my.id}', topic = '${TOPIC}', "
                + "path = '${data.dir}/x', other = '${missing:fallback}');\n"
                + "CREATE TABLE o (a INT) WITH (type = 'collect');\n"
                + "INSERT INTO o SELECT a FROM s;").graph();
        Options o = nodes(g, SourceNode.class).get(0).table().options();
        assertEquals("from-set", o.get("id"));
        assertEquals("env-topic", o.get("topic"));
        assertEquals("/conf-dir/x", o.get("path"));
        assertEquals("fallback", o.get("other"));
        assertEquals("from-set", g.parameters().get("my.id"));
    }

    @Test
    void errorPolicyAndDeadLetterTableFromOptions() {
        JobGraph g = plan("CREATE TABLE s (a INT) WITH (type = 'values', id = 's', 'json.ignore-parse-errors' = 'true',"
                + " 'scan.dead-letter-table' = 'bad');\n"
                + "CREATE TABLE bad (table_name STRING, payload STRING, error STRING) WITH (type = 'collect');\n"
                + "CREATE TABLE o (a INT) WITH (type = 'collect');\n"
                + "INSERT INTO o SELECT a FROM s;");
        SourceNode src = nodes(g, SourceNode.class).get(0);
        assertEquals(ErrorPolicy.SKIP, src.errorPolicy());
        assertEquals("bad", src.deadLetterTable().name());
    }

    static PlanningException planError(String script) {
        return assertThrows(PlanningException.class, () -> plan(script));
    }

    @Test
    void unknownTableIsReportedWithItsPosition() {
        PlanningException e = planError(ORDERS
                + "CREATE TABLE o (a BIGINT) WITH (type = 'collect');\n"
                + "INSERT INTO o SELECT order_id FROM ordrs;");
        assertTrue(e.getMessage().startsWith("line 5, column 36:"), e.getMessage());
        assertTrue(e.getMessage().contains("table or view 'ordrs' not found"), e.getMessage());
    }

    @Test
    void unknownColumnIsReportedWithItsPosition() {
        PlanningException e = planError(ORDERS
                + "CREATE TABLE o (a BIGINT) WITH (type = 'collect');\n"
                + "INSERT INTO o\nSELECT order_idd FROM orders;");
        assertTrue(e.getMessage().startsWith("line 6, column 8:"), e.getMessage());
        assertTrue(e.getMessage().contains("order_idd"), e.getMessage());
    }

    @Test
    void unknownFunctionIsReportedWithItsPosition() {
        PlanningException e = planError(ORDERS
                + "CREATE TABLE o (a BIGINT) WITH (type = 'collect');\n"
                + "INSERT INTO o SELECT no_such_fn(order_id) FROM orders;");
        assertTrue(e.getMessage().startsWith("line 5, column 22:"), e.getMessage());
        assertTrue(e.getMessage().toLowerCase().contains("no_such_fn"), e.getMessage());
    }

    /** rsqldb's scripts: RocketMQ tables without a connector, a bare SELECT, options that do nothing. */
    @Test
    void rsqldbScriptsPlanAsWritten() {
        PlannedJob job = new ScriptPlanner(PlannerContext.defaults()).plan("test",
                "CREATE TABLE `sourceTable` (position VARCHAR, num INT, count INT) WITH (\n"
                + "  topic = 'groupBy-source', groupName = 'g', namesrvAddr = '127.0.0.1:9876',\n"
                + "  data_format = 'json', pullIntervalMs = '100', maxThread = '2');\n"
                + "SELECT `position`, avg(num) AS nums, count(*) AS c, sum(count) FROM sourceTable GROUP BY position;");
        assertEquals("rocketmq", job.graph().sources().get(0).table().connector());
        assertEquals("print", job.graph().sinks().get(0).table().connector());
        assertEquals(List.of("position", "nums", "c", "EXPR$3"),
                job.graph().sinks().get(0).table().schema().rowType().names());
        assertEquals(List.of("table sourceTable (connector rocketmq): options maxThread, pullIntervalMs ignored"
                + " (no effect)"), job.warnings());
        // namesrvAddr alone also makes a RocketMQ table (the topic is still required).
        assertTrue(planError("CREATE TABLE s (a INT) WITH (namesrvAddr = '127.0.0.1:9876');\n"
                + "SELECT a FROM s;").getMessage().contains("option 'topic' is required"));
    }

    @Test
    void otherMistakesGiveClearErrors() {
        assertTrue(planError(ORDERS).getMessage().contains("no INSERT INTO"));
        assertTrue(planError("CREATE TABLE s (a INT) WITH (path = 'x');\n"
                + "CREATE TABLE o (a INT) WITH (type = 'collect');\nINSERT INTO o SELECT a FROM s;")
                .getMessage().contains("names no connector"));
        assertTrue(planError(ORDERS + ORDERS).getMessage().contains("already defined"));
        assertTrue(planError("CREATE TABLE s (a INT) WITH (type = 'values', id = '${nope}');\n")
                .getMessage().startsWith("line 1,"));
        assertTrue(planError(ORDERS + "CREATE VIEW v AS SELECT order_id FROM orders;\n"
                + "INSERT INTO v SELECT order_id FROM orders;").getMessage().contains("cannot insert into view"));
        assertTrue(planError(ORDERS + "CREATE TABLE o (a BIGINT, b BIGINT) WITH (type = 'collect');\n"
                + "INSERT INTO o SELECT order_id, COUNT(*) OVER (PARTITION BY order_id ORDER BY ts) FROM orders;")
                .getMessage().contains("must be defined on a time attribute"));
    }

    static final String EVENTS = "CREATE TABLE ev (k VARCHAR, v INT, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS withOffset(ts, 1000)) WITH (type = 'values', id = 'ev');\n"
            + "CREATE TABLE o (k VARCHAR, n BIGINT) WITH (type = 'collect');\n";

    @Test
    void emitStrategiesArePerInsertAndLatenessComesFromSettings() {
        String window = "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)";
        JobGraph g = plan("SET 'blink.state.ttl.ms' = '120000';\n" + EVENTS
                + window + " EMIT WITH DELAY '30' SECOND BEFORE WATERMARK, WITHOUT DELAY AFTER WATERMARK;\n"
                + window + " EMIT WITH DELAY '1' MINUTE;\n"
                + window + ";\n"
                + "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k;\n");
        List<EmitSpec> emits = nodes(g, WindowAggregateNode.class).stream().map(WindowAggregateNode::emit)
                .collect(Collectors.toList());
        assertEquals(List.of(new EmitSpec(30_000, 0, 120_000), new EmitSpec(60_000, 60_000, 120_000),
                EmitSpec.ON_WATERMARK), emits);
        assertEquals(120_000, nodes(g, GroupAggregateNode.class).get(0).stateTtlMillis());

        g = plan("SET 'table.exec.state.ttl' = '1 h';\nSET 'table.exec.emit.allow-lateness' = '5 min';\n" + EVENTS
                + window + " EMIT WITHOUT DELAY AFTER WATERMARK;\n" + window + ";\n"
                + "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k;\n");
        assertEquals(List.of(new EmitSpec(-1, 0, 300_000), EmitSpec.ON_WATERMARK),
                nodes(g, WindowAggregateNode.class).stream().map(WindowAggregateNode::emit)
                        .collect(Collectors.toList()));
        assertEquals(3_600_000, nodes(g, GroupAggregateNode.class).get(0).stateTtlMillis());
    }

    @Test
    void windowMistakesGiveClearErrors() {
        assertTrue(planError(EVENTS + "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k, TUMBLE(v, INTERVAL '1'"
                + " MINUTE)").getMessage().contains("TIMESTAMP"));
        assertTrue(planError("CREATE TABLE ev (k VARCHAR, ts TIMESTAMP(3)) WITH (type = 'values', id = 'ev');\n"
                + "CREATE TABLE o (k VARCHAR, n BIGINT) WITH (type = 'collect');\n"
                + "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)")
                .getMessage().contains("needs a time attribute"));
        assertTrue(planError(EVENTS + "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k,"
                + " TUMBLE(ts, INTERVAL '1' MINUTE), HOP(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE)")
                .getMessage().contains("one window only"));
        assertTrue(planError(EVENTS + "INSERT INTO o SELECT k, COUNT(*) FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts),"
                + " INTERVAL '1' MINUTE)) GROUP BY k, window_start").getMessage().contains("window_end"));
        assertTrue(planError("SET 'table.exec.late-data.table' = 'nope';\n" + EVENTS
                + "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)")
                .getMessage().contains("nope"));
        PlanningException e = planError("CREATE TABLE ev (k VARCHAR, ts TIMESTAMP(3),\n"
                + "  WATERMARK FOR ts AS k) WITH (type = 'values', id = 'ev');\n"
                + "CREATE TABLE o (k VARCHAR, n BIGINT) WITH (type = 'collect');\n"
                + "INSERT INTO o SELECT k, COUNT(*) FROM ev GROUP BY k");
        assertTrue(e.getMessage().startsWith("line 2,") && e.getMessage().contains("must be a TIMESTAMP"),
                e.getMessage());
    }
}
