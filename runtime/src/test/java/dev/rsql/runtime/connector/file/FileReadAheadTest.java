package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.GuardedRowDecoder;
import dev.rsql.runtime.format.json.JsonFormatFactory;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A file read ahead gives the task the rows and bad records of the file read on the task's thread, in order, with a
 * line's rows together, and a position after every read that is the line after the last one handed on (or after
 * blank lines following it); from a restored position too; and it closes while a batch is being read.
 */
class FileReadAheadTest {

    private static final RowType TYPE = RowType.builder().field("id", DataType.of(DataType.Kind.BIGINT)).build();
    private static final int LINES = 5_000;

    @TempDir
    Path tmp;

    @Test
    void givesWhatTheFileGivesInOrderWithPositionsOfLinesHandedOn() throws Exception {
        Path file = file();
        List<String> expected = readPlain(file, 0);
        for (long seed = 1; seed <= 3; seed++) {
            assertEquals(expected, readAhead(file, 0, new Random(seed)));
        }
    }

    @Test
    void continuesAtARestoredLine() throws Exception {
        Path file = file();
        assertEquals(readPlain(file, 2_500), readAhead(file, 2_500, new Random(7)));
    }

    @Test
    void closesWhileReading() throws Exception {
        Path file = file();
        FileReadAhead reader = new FileReadAhead(plain(file, 0), 0);
        reader.setAvailabilityListener(() -> { });
        reader.read(new Events(reader), 10);
        assertTimeoutPreemptively(Duration.ofSeconds(30), reader::close);
    }

    /** Lines of one id, JSON arrays of two ids (every 13th), bad lines (every 7th) and blank ones (every 11th). */
    private Path file() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            if (i % 11 == 0) {
                b.append('\n');
            } else if (i % 7 == 0) {
                b.append("{\"id\": oops}\n");
            } else if (i % 13 == 0) {
                b.append("[{\"id\": ").append(i).append("}, {\"id\": ").append(-i).append("}]\n");
            } else {
                b.append("{\"id\": ").append(i).append("}\n");
            }
        }
        Path file = tmp.resolve("in.jsonl");
        Files.writeString(file, b);
        return file;
    }

    private static FileShardReader plain(Path file, long startLine) {
        Options opts = new Options(Map.of("array-of-rows", "true"));
        GuardedRowDecoder decoder = new GuardedRowDecoder(
                new JsonFormatFactory().createDecoder(FormatContext.of("t", TYPE, opts)), 1 << 20);
        return new FileShardReader("in.jsonl", file, decoder, 1 << 20, new int[0], new int[0], new boolean[0],
                startLine);
    }

    private static List<String> readPlain(Path file, long startLine) throws Exception {
        FileShardReader reader = plain(file, startLine);
        Events events = new Events(reader);
        while (!reader.isEndOfInput()) {
            reader.read(events, 100);
        }
        reader.close();
        return events.list;
    }

    /** Reads with random budgets, waiting for the listener when nothing is ready, checking the position each time. */
    private static List<String> readAhead(Path file, long startLine, Random r) throws Exception {
        FileReadAhead reader = new FileReadAhead(plain(file, startLine), startLine);
        Semaphore ready = new Semaphore(0);
        reader.setAvailabilityListener(ready::release);
        Events events = new Events(reader);
        assertEquals(startLine, reader.position());
        while (!reader.isEndOfInput()) {
            int n = reader.read(events, 1 + r.nextInt(50));
            if (n == 0 && !reader.isEndOfInput()) {
                assertTrue(ready.tryAcquire(30, TimeUnit.SECONDS), "no batch came");
            } else if (!reader.isEndOfInput()) {
                // the line after the last one handed on, or after blank lines following it
                long position = reader.position();
                assertTrue(position > events.lastLine, "position " + position + " after line " + events.lastLine);
                for (long line = events.lastLine + 1; line < position; line++) {
                    assertEquals(0, line % 11, "line " + line + " skipped by position " + position);
                }
            }
        }
        assertEquals(LINES, reader.position());
        reader.close();
        return events.list;
    }

    /** What a reader hands on, as text: a line's rows and bad records with their positions. */
    private static final class Events implements ReaderOutput {
        final List<String> list = new ArrayList<>();
        final ShardReader reader;
        long lastLine = -1;

        Events(ShardReader reader) {
            this.reader = reader;
        }

        @Override
        public void emit(long position, Object[] fields) {
            lastLine = position;
            list.add(position + " " + Arrays.toString(fields));
        }

        @Override
        public void emit(long position, Row row) {
            lastLine = position;
            list.add(position + " " + row);
        }

        @Override
        public void decodeError(long position, byte[] payload, Exception cause) {
            lastLine = position;
            list.add(reader.describePosition(position) + " bad: " + new String(payload) + ": " + cause.getMessage());
        }
    }
}
