package dev.rsql.runtime.exec;

import dev.rsql.runtime.metrics.CheckpointStats;
import dev.rsql.runtime.state.KeyedStateBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Takes consistent checkpoints of a job instance: source tasks record their shard position and send a barrier
 * downstream; each partition task snapshots its state once the barrier arrived on all its inputs. When every task
 * acknowledged, the checkpoint is written (positions, watermarks, state directories) and the tasks are told — sources
 * then commit their positions to the external system. One checkpoint runs at a time.
 */
final class CheckpointCoordinator implements TaskCheckpoints {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinator.class);

    private final String jobName;
    private final Path root;
    private final StateIdentity identity;
    private final Supplier<Collection<Task>> tasks;
    private long nextId;
    private Pending pending;
    private volatile CheckpointStats stats = CheckpointStats.NONE;

    private static final class Pending {
        final long id;
        final Set<String> waitingFor;
        final Map<String, Task> participants = new HashMap<>();
        final Map<String, TaskSnapshot> acks = new HashMap<>();
        final CompletableFuture<Long> done = new CompletableFuture<>();
        final long startedNanos = System.nanoTime();

        Pending(long id, Collection<Task> participants) {
            this.id = id;
            participants.forEach(t -> this.participants.put(t.id(), t));
            this.waitingFor = new HashSet<>(this.participants.keySet());
        }
    }

    /**
     * @param root     where checkpoints are written, or null when the job has no state (positions are then only
     *                 committed, nothing is persisted)
     * @param identity what the checkpoints belong to, recorded in each
     */
    CheckpointCoordinator(String jobName, Path root, StateIdentity identity, long firstId,
                          Supplier<Collection<Task>> tasks) {
        this.jobName = jobName;
        this.root = root;
        this.identity = identity;
        this.nextId = firstId;
        this.tasks = tasks;
    }

    /** Builds a task whose channels take part in checkpoints from {@code firstCheckpoint} on. */
    interface TaskFactory<T extends Task> {
        T create(long firstCheckpoint) throws Exception;
    }

    /**
     * Creates a task and makes it one of the job's tasks ({@code register}) with no checkpoint triggered in between.
     * Its channels wait for the barriers of the next checkpoint on, so that checkpoint must ask the task to take part:
     * one triggered after the channels exist but before the task is registered would leave the partitions downstream
     * waiting for a barrier that never comes, and the job would stall there for good.
     */
    synchronized <T extends Task> T addTask(TaskFactory<T> factory, Consumer<? super T> register) throws Exception {
        T task = factory.create(nextId);
        register.accept(task);
        return task;
    }

    /** The checkpoints so far; safe from any thread. */
    CheckpointStats stats() {
        return stats;
    }

    /** Starts a checkpoint unless one is running; completes with its id (or exceptionally if it is aborted). */
    synchronized CompletableFuture<Long> trigger() {
        if (pending != null) {
            return pending.done;
        }
        List<Task> running = new ArrayList<>();
        boolean anySource = false;
        for (Task t : tasks.get()) {
            if (t.isRunning()) {
                running.add(t);
                anySource |= t instanceof SourceTask;
            }
        }
        if (!anySource) {
            return CompletableFuture.failedFuture(new IllegalStateException("no source task is running"));
        }
        Pending p = new Pending(nextId++, running);
        pending = p;
        for (Task t : running) {
            if (t instanceof SourceTask || !((PartitionTask) t).hasInputChannels()) {
                t.triggerCheckpoint(p.id);
            }
        }
        return p.done;
    }

    @Override
    public String snapshotState(long checkpointId, String taskId, KeyedStateBackend state) throws IOException {
        if (root == null) {
            throw new IllegalStateException("job " + jobName + " keeps state but has no checkpoint directory");
        }
        String name = TaskDirs.safeName(taskId);
        state.snapshot(CompletedCheckpoint.dirOf(root, checkpointId).resolve(name));
        return name;
    }

    @Override
    public synchronized void acknowledge(long checkpointId, TaskSnapshot snapshot) {
        Pending p = pending;
        if (p == null || p.id != checkpointId) {
            return;
        }
        p.acks.put(snapshot.taskId(), snapshot);
        p.waitingFor.remove(snapshot.taskId());
        if (p.waitingFor.isEmpty()) {
            complete(p);
        }
    }

    /** A task ended: a checkpoint still waiting for it cannot complete. */
    synchronized void taskEnded(Task task) {
        Pending p = pending;
        if (p != null && p.waitingFor.contains(task.id())) {
            abort(p, "task " + task.id() + " ended before taking part");
        }
    }

    private void complete(Pending p) {
        pending = null;
        try {
            if (root != null) {
                new CompletedCheckpoint(p.id, CompletedCheckpoint.dirOf(root, p.id), p.acks, identity).write();
                CompletedCheckpoint.deleteOlderThan(root, p.id);
            }
        } catch (IOException e) {
            LOG.error("job={} checkpoint {} could not be written", jobName, p.id, e);
            stats = stats.withAborted();
            p.done.completeExceptionally(e);
            return;
        }
        long millis = (System.nanoTime() - p.startedNanos) / 1_000_000;
        stats = root == null ? stats.withCompleted(p.id, millis, -1, System.currentTimeMillis(), -1)
                : stats.withCompleted(p.id, millis, DirectorySize.of(CompletedCheckpoint.dirOf(root, p.id)),
                System.currentTimeMillis(), DirectorySize.of(root.getParent()));
        LOG.debug("job={} checkpoint {} complete ({} tasks)", jobName, p.id, p.acks.size());
        for (Task t : p.participants.values()) {
            t.notifyCheckpointComplete(p.id);
        }
        p.done.complete(p.id);
    }

    /**
     * Gives a checkpoint up. Its directory stays: other tasks may still be writing their snapshots into it (their
     * acknowledgements are then ignored), and deleting it under them failed them. Without metadata it is never
     * restored from; the next completed checkpoint deletes it with the older ones, by which time every task that was
     * snapshotting it has moved on.
     */
    private void abort(Pending p, String reason) {
        pending = null;
        stats = stats.withAborted();
        LOG.info("job={} checkpoint {} aborted: {}", jobName, p.id, reason);
        p.done.completeExceptionally(new IllegalStateException("checkpoint " + p.id + " aborted: " + reason));
    }
}
