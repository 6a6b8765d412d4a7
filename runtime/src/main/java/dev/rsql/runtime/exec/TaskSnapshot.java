package dev.rsql.runtime.exec;

/**
 * What one task contributed to a checkpoint: its source position (-1 for partition tasks), the watermark it had
 * reached, and where its state snapshot is (relative to the checkpoint directory; null when it has no state).
 */
public record TaskSnapshot(String taskId, long position, long watermark, String stateDir) {
}
