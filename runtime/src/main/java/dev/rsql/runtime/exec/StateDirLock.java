package dev.rsql.runtime.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One process's exclusive hold on a local job's state directory while it uses it: a second process of the job would
 * otherwise restore the same checkpoint, take checkpoints under the same ids and delete the first one's. An OS file
 * lock on {@code owner.lock} ({@link FileChannel#tryLock}), so it goes away with the process however that ends; the
 * file names the holder (process id and host) so that a refusal can say who it is.
 */
public final class StateDirLock implements AutoCloseable {

    static final String FILE = "owner.lock";
    /**
     * Lock files held in this JVM. A second channel on a held file must not even be opened here: closing it would drop
     * the process's OS lock (POSIX locks belong to the process, not the channel).
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private StateDirLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code jobStateDir} (created if needed), or throws {@link StateConflictException} naming the
     * process and host that hold it.
     */
    public static StateDirLock acquire(Path jobStateDir, String jobName) {
        Path file = jobStateDir.resolve(FILE).toAbsolutePath().normalize();
        if (!HELD.add(file)) {
            throw refused(jobName, jobStateDir, self() + " (this process)");
        }
        try {
            Files.createDirectories(jobStateDir);
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (IOException | OverlappingFileLockException e) {
                channel.close();
                throw e;
            }
            if (lock == null) {
                String holder = holder(channel);
                channel.close();
                throw refused(jobName, jobStateDir, holder);
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(self().getBytes(StandardCharsets.UTF_8)), 0);
            channel.force(false);
            return new StateDirLock(file, channel, lock);
        } catch (IOException e) {
            HELD.remove(file);
            throw new UncheckedIOException("job " + jobName + ": cannot lock its state directory " + jobStateDir
                    + ": " + e, e);
        } catch (RuntimeException e) {
            HELD.remove(file);
            throw e;
        }
    }

    private static StateConflictException refused(String jobName, Path dir, String holder) {
        return new StateConflictException("job " + jobName + " is already running: its state directory " + dir
                + " is held by " + holder + "; stop that one first (bin/stop.sh " + jobName + ")");
    }

    /** What the holder wrote into the lock file. */
    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(512);
        channel.read(buf, 0);
        String s = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).trim();
        return s.isEmpty() ? "another process" : s;
    }

    /** How this process names itself in the lock file. */
    private static String self() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        return "process " + ManagementFactory.getRuntimeMXBean().getPid() + " on host " + host;
    }

    /** Releases the lock; the file stays (deleting it could race with the next holder). */
    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // Closing the channel releases the OS lock in any case.
        } finally {
            HELD.remove(file);
        }
    }
}
