package dev.rsql.runtime.testing;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.WindowSpec;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The job the recovery tests run: a 10 s tumbling count per key over the scripted source ({@code k, v, ts}, watermark
 * = event time) into a collect sink ({@code k, cnt, ws, we, wt}).
 */
public final class KeyedWindowCount {

    public static final long BASE = 1_700_000_000_000L;
    public static final long WINDOW = 10_000;
    public static final RowType EVENTS = RowType.builder().field("k", DataType.string())
            .field("v", DataType.of(DataType.Kind.BIGINT)).field("ts", DataType.timestamp(3)).build();
    public static final RowType WITH_WATERMARK = RowType.builder().field("k", DataType.string())
            .field("v", DataType.of(DataType.Kind.BIGINT)).field("ts", DataType.timestamp(3))
            .field("wm", DataType.timestamp(3)).build();
    public static final RowType COUNTS = RowType.builder().field("k", DataType.string())
            .field("cnt", DataType.of(DataType.Kind.BIGINT).notNull()).field("ws", DataType.timestamp(3))
            .field("we", DataType.timestamp(3)).field("wt", DataType.timestamp(3)).build();

    private KeyedWindowCount() {
    }

    public static TableDescriptor table(String name, String connector, RowType type, Map<String, String> options) {
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < type.size(); i++) {
            columns.add(Column.physical(type.name(i), type.type(i)));
        }
        return new TableDescriptor(name, new TableSchema(columns, List.of()), connector, new Options(options));
    }

    /** @param bounded whether the scripted source ends once its shards are read */
    public static JobGraph graph(String jobName, String sourceId, String sinkId, boolean bounded) {
        GraphBuilder b = new GraphBuilder(jobName);
        b.source(table("events", "scripted", EVENTS, Map.of("id", sourceId, "bounded", String.valueOf(bounded))))
                .map(WITH_WATERMARK, r -> new Object[]{r[0], r[1], r[2], r[2]})
                .watermark(2, 3)
                .window(WindowSpec.tumble(2, true, WINDOW))
                .exchange(0)
                .windowAggregate(new int[]{0}, 4, 5, true, false,
                        List.of(new AggregateCall("COUNT(*)", () -> new CountFunction(-1))), EmitSpec.ON_WATERMARK,
                        COUNTS, null)
                .sinkTo(table("counts", "collect", COUNTS, Map.of("id", sinkId)));
        return b.build();
    }

    /** Key "a", one row a second from BASE: 10 rows per window. */
    public static List<Object[]> rows(int n) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Object[]{"a", 1L, BASE + i * 1000L});
        }
        return rows;
    }
}
