package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The task engine on in-memory sources and sinks, built with the Java DSL (no SQL). */
class JobInstanceTest {

    static final RowType EVENT = RowType.builder()
            .field("id", DataType.of(DataType.Kind.INT))
            .field("v", DataType.of(DataType.Kind.BIGINT))
            .build();

    static TableDescriptor table(String name, String connector, RowType type, Map<String, String> options) {
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < type.size(); i++) {
            cols.add(Column.physical(type.name(i), type.type(i)));
        }
        return new TableDescriptor(name, new TableSchema(cols, List.of()), connector, new Options(options));
    }

    static JobInstance run(JobGraph graph) throws Exception {
        JobInstance job = new JobInstance(graph, EngineContext.of(Map.of("checkpoint.interval", "20ms",
                "worker.threads", "2", "state.dir", "target/state")));
        job.start();
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)), "job did not end");
        return job;
    }

    static List<String> payloads(int from, int to) {
        List<String> p = new ArrayList<>();
        for (int i = from; i < to; i++) {
            p.add("{\"id\":" + i + ",\"v\":" + (i * 10) + "}");
        }
        return p;
    }

    static List<Integer> ids(List<Row> rows) {
        return rows.stream().map(r -> (Integer) r.get(0)).sorted().collect(Collectors.toList());
    }

    @Test
    void oneTaskPerShardFanOutAndUnionIntoOneSink() throws Exception {
        String run = UUID.randomUUID().toString();
        ValuesSourceFactory.register(run, payloads(0, 300), payloads(300, 600), payloads(600, 1000));
        TableDescriptor src = table("events", "values", EVENT, Map.of("id", run));
        TableDescriptor evens = table("evens", "collect", EVENT, Map.of("id", run + "-evens"));
        TableDescriptor all = table("all", "collect", EVENT, Map.of("id", run + "-all"));
        GraphBuilder b = new GraphBuilder("fanout");
        GraphBuilder.Stream s = b.source(src);
        s.filter(r -> (Integer) r[0] % 2 == 0).sinkTo(evens);
        s.filter(r -> (Integer) r[0] < 500).union(b.source(src).filter(r -> (Integer) r[0] >= 500)).sinkTo(all);
        JobGraph g = b.build();
        assertEquals(1, g.sources().size());

        JobInstance job = run(g);
        assertEquals(JobInstance.State.FINISHED, job.state());
        assertEquals(500, CollectSinkFactory.rows(run + "-evens").size());
        List<Integer> allIds = ids(CollectSinkFactory.rows(run + "-all"));
        assertEquals(1000, allIds.size());
        assertEquals(999, allIds.get(999));
        JobStatus status = job.status();
        assertEquals(3, status.tasks.size());
        assertEquals(1000, status.recordsIn());
        assertEquals(1500, status.rowsOut());
    }

    @Test
    void aBadRecordFailsTheJobWithItsPosition() throws Exception {
        String run = UUID.randomUUID().toString();
        List<String> data = payloads(0, 10);
        data.set(4, "{\"id\":\"four\",\"v\":40}");
        ValuesSourceFactory.register(run, data);
        GraphBuilder b = new GraphBuilder("strict");
        b.source(table("events", "values", EVENT, Map.of("id", run)))
                .sinkTo(table("out", "collect", EVENT, Map.of("id", run + "-out")));
        JobInstance job = run(b.build());
        assertEquals(JobInstance.State.FAILED, job.state());
        assertNotNull(job.failure());
        String msg = job.failure().getMessage();
        assertTrue(msg.contains("record 4") && msg.contains("events") && msg.contains("id"), msg);
    }

    @Test
    void skippedRecordsAreCountedAndDeadLettered() throws Exception {
        String run = UUID.randomUUID().toString();
        List<String> data = payloads(0, 10);
        data.set(2, "not json");
        data.set(7, "{\"id\":7,\"v\":\"seventy\"}");
        ValuesSourceFactory.register(run, data);
        RowType dlType = RowType.builder().field("table_name", DataType.string()).field("position", DataType.string())
                .field("error", DataType.string()).field("payload", DataType.string()).build();
        TableDescriptor dl = table("bad", "collect", dlType, Map.of("id", run + "-bad"));
        GraphBuilder b = new GraphBuilder("lenient");
        b.source(table("events", "values", EVENT, Map.of("id", run)), ErrorPolicy.SKIP, dl)
                .sinkTo(table("out", "collect", EVENT, Map.of("id", run + "-out")));
        JobInstance job = run(b.build());
        assertEquals(JobInstance.State.FINISHED, job.state());
        assertEquals(8, CollectSinkFactory.rows(run + "-out").size());
        assertEquals(2, job.status().tasks.get(0).skipped);
        List<Row> bad = CollectSinkFactory.rows(run + "-bad");
        assertEquals(2, bad.size());
        assertEquals("events", bad.get(0).get(0));
        assertTrue(((String) bad.get(0).get(1)).contains("record 2"), (String) bad.get(0).get(1));
        assertEquals("not json", bad.get(0).get(3));
    }

    @Test
    void anOperatorErrorNamesTheRecordAndFailsTheJob() throws Exception {
        String run = UUID.randomUUID().toString();
        ValuesSourceFactory.register(run, payloads(0, 20));
        GraphBuilder b = new GraphBuilder("throws");
        b.source(table("events", "values", EVENT, Map.of("id", run)))
                .map(EVENT, r -> {
                    if ((Integer) r[0] == 13) {
                        throw new ArithmeticException("unlucky");
                    }
                    return r;
                })
                .sinkTo(table("out", "collect", EVENT, Map.of("id", run + "-out")));
        JobInstance job = run(b.build());
        assertEquals(JobInstance.State.FAILED, job.state());
        assertTrue(job.failure().getMessage().contains("record 13"), job.failure().getMessage());
        assertTrue(job.failure().getMessage().contains("unlucky"), job.failure().getMessage());
    }
}
