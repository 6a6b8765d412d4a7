package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.state.StateException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommitRecordTest {

    @Test
    void roundTripsThroughBytes() {
        CommitRecord r = new CommitRecord(0x8000_0000_0000_0001L, 42, 90, 17, 1 << 20, 12345, 3,
                new byte[] {1, 2, 3, (byte) 0xff},
                List.of(new CommitRecord.PastIncarnation(-7, 9), new CommitRecord.PastIncarnation(5, 1)));
        CommitRecord back = CommitRecord.fromBytes(r.toBytes());
        assertEquals(r, back);
        assertEquals(90, back.offset());
        assertTrue(back.countsAt(90));
        assertFalse(back.countsAt(91), "stored after another writer's message");
        assertArrayEquals(new byte[] {1, 2, 3, (byte) 0xff}, back.taskMeta());
        assertEquals(List.of(new CommitRecord.PastIncarnation(-7, 9), new CommitRecord.PastIncarnation(5, 1)),
                back.history());
    }

    /** Format 1, written before stage messages existed, is still read: without a stage offset. */
    @Test
    void readsTheFormatWithoutStageOffset() {
        CommitRecord staged = new CommitRecord(3, 4, 5, 6, 7, 8, 9, new byte[] {1}, List.of(), 77);
        assertEquals(staged, CommitRecord.fromBytes(staged.toBytes()));
        assertEquals(77, CommitRecord.fromBytes(staged.toBytes()).stageOffset());
        byte[] v2 = new CommitRecord(3, 4, 5, 6, 7, 8, 9, new byte[] {1}, List.of()).toBytes();
        byte[] v1 = java.util.Arrays.copyOf(v2, v2.length - Long.BYTES);   // format 1 ends after the history
        v1[0] = 1;
        CommitRecord old = CommitRecord.fromBytes(v1);
        assertEquals(-1, old.stageOffset());
        assertEquals(4, old.checkpointId());
    }

    @Test
    void historyAfterPutsThisIncarnationFirstAndKeepsTheNewest() {
        List<CommitRecord.PastIncarnation> history = new ArrayList<>();
        for (int i = 0; i < CommitRecord.HISTORY_SIZE; i++) {
            history.add(new CommitRecord.PastIncarnation(100 + i, i));
        }
        CommitRecord r = new CommitRecord(1, 50, 0, 0, 0, 0, 0, new byte[0], history);
        List<CommitRecord.PastIncarnation> next = r.historyAfter();
        assertEquals(CommitRecord.HISTORY_SIZE, next.size());
        assertEquals(new CommitRecord.PastIncarnation(1, 50), next.get(0));
        assertEquals(history.subList(0, CommitRecord.HISTORY_SIZE - 1), next.subList(1, next.size()));
    }

    @Test
    void rejectsForeignBytes() {
        byte[] bytes = new CommitRecord(1, 2, 3, 4, 5, 6, 7, new byte[0], List.of()).toBytes();
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(StateException.class, () -> CommitRecord.fromBytes(longer));
        bytes[0] = 9;
        assertThrows(StateException.class, () -> CommitRecord.fromBytes(bytes));
    }
}
