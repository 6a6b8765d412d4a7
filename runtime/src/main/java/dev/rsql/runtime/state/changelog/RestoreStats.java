package dev.rsql.runtime.state.changelog;

/**
 * What a restore read and applied.
 *
 * @param commitOffset       queue offset of the commit record restored, -1 if none
 * @param firstStateOffset   queue offset of the first state message read (the base snapshot's first), -1 if none
 * @param messagesRead       messages read, commit records included
 * @param bytesRead          stored bytes of those messages (what came over the network)
 * @param entriesApplied     entries written into the backend, tombstones included
 * @param checkpointsApplied committed checkpoints whose entries were applied
 * @param millis             duration of the restore
 */
public record RestoreStats(long commitOffset, long firstStateOffset, long messagesRead, long bytesRead,
                           long entriesApplied, int checkpointsApplied, long millis) {
}
