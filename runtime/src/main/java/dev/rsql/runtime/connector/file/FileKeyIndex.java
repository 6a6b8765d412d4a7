package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.state.Murmur3;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.RowType;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Point lookups in files too large to cache whole (a partial cache in front): an index of where each line is, by the
 * hash of its key columns (about 20 bytes a line: hash and line number sorted together, then offset and length), built
 * by one pass over the files; a lookup reads and decodes only the lines of its hash. The files are checked for changes
 * on each lookup (size and modification time): a rewritten file is indexed again. Thread-safe (positional reads).
 */
final class FileKeyIndex implements LookupReader {

    private static final Logger LOG = LoggerFactory.getLogger(FileKeyIndex.class);
    private static final int SEED = 0x2f0b3c1d;

    private final FileLookupSource source;
    private final int[] keyColumns;
    private final RowSerializer keySerializer;
    private final ThreadLocal<RowDecoder> decoders;
    private volatile Snapshot snapshot;

    /** One indexing of the files. */
    private record Snapshot(List<Path> files, long[] sizes, long[] modified, FileChannel[] channels,
                            long[] hashAndLine, long[] offsets, int[] lengths) {
    }

    FileKeyIndex(FileLookupSource source, RowType rowType, int[] keyColumns) throws Exception {
        this.source = source;
        this.keyColumns = keyColumns.clone();
        this.keySerializer = RowSerializer.forKeys(rowType, keyColumns);
        this.decoders = ThreadLocal.withInitial(source::decoder);
        this.snapshot = index();
    }

    private Snapshot index() throws Exception {
        long began = System.nanoTime();
        List<Path> files = source.currentFiles();
        long[] sizes = new long[files.size()];
        long[] modified = new long[files.size()];
        FileChannel[] channels = new FileChannel[files.size()];
        Lines lines = new Lines();
        for (int f = 0; f < files.size(); f++) {
            Path file = files.get(f);
            modified[f] = Files.getLastModifiedTime(file).toMillis();
            sizes[f] = Files.size(file);
            channels[f] = FileChannel.open(file, StandardOpenOption.READ);
            long fileBits = (long) f << 48;
            FileLookupSource.readLines(source.name(), file, 0, sizes[f], source.decoder(), (start, length, values) -> {
                byte[] key = keyBytes(values);
                if (key != null) {
                    lines.add(Murmur3.hash32(key, SEED), fileBits | start, length);
                }
            });
        }
        long[] sorted = Arrays.copyOf(lines.hashes, lines.count);
        Arrays.sort(sorted);
        LOG.info("dimension table {}: indexed {} lines of {} files for point lookups in {} ms", source.name(),
                lines.count, files.size(), (System.nanoTime() - began) / 1_000_000);
        return new Snapshot(files, sizes, modified, channels, sorted, lines.offsets, lines.lengths);
    }

    /** Where the lines are, as they are read. */
    private static final class Lines {
        long[] hashes = new long[1024];
        long[] offsets = new long[1024];
        int[] lengths = new int[1024];
        int count;

        void add(int hash, long offset, int length) {
            if (count == hashes.length) {
                hashes = Arrays.copyOf(hashes, count * 2);
                offsets = Arrays.copyOf(offsets, count * 2);
                lengths = Arrays.copyOf(lengths, count * 2);
            }
            hashes[count] = ((long) hash << 32) | count;
            offsets[count] = offset;
            lengths[count] = length;
            count++;
        }
    }
    private byte[] keyBytes(Object[] values) {
        Object[] key = new Object[keyColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = values[keyColumns[i]];
            if (key[i] == null) {
                return null;
            }
        }
        return keySerializer.serialize(key);
    }

    @Override
    public List<Object[]> lookup(Object[] key) throws Exception {
        Snapshot s = current();
        byte[] wanted = keySerializer.serialize(key);
        long hash = (long) Murmur3.hash32(wanted, SEED) << 32;
        long[] sorted = s.hashAndLine();
        int i = Arrays.binarySearch(sorted, hash);
        i = i < 0 ? -i - 1 : i;
        List<Object[]> out = new ArrayList<>(1);
        RowDecoder decoder = decoders.get();
        for (; i < sorted.length && (sorted[i] & 0xFFFFFFFF00000000L) == hash; i++) {
            int line = (int) sorted[i];
            long at = s.offsets()[line];
            ByteBuffer buf = ByteBuffer.allocate(s.lengths()[line]);
            FileChannel ch = s.channels()[(int) (at >>> 48)];
            long pos = at & ((1L << 48) - 1);
            while (buf.hasRemaining()) {
                if (ch.read(buf, pos + buf.position()) < 0) {
                    break;
                }
            }
            decoder.decode(buf.array(), values -> {
                if (Arrays.equals(wanted, keyBytes(values))) {
                    out.add(values);
                }
            });
        }
        return out;
    }

    /** The index of the files as they are now: indexed again when one changed. */
    private Snapshot current() throws Exception {
        Snapshot s = snapshot;
        for (int f = 0; f < s.files().size(); f++) {
            Path file = s.files().get(f);
            if (Files.size(file) != s.sizes()[f] || Files.getLastModifiedTime(file).toMillis() != s.modified()[f]) {
                synchronized (this) {
                    if (snapshot == s) {
                        close(s);
                        snapshot = index();
                    }
                    return snapshot;
                }
            }
        }
        return s;
    }

    private static void close(Snapshot s) {
        for (FileChannel c : s.channels()) {
            try {
                c.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public void close() {
        close(snapshot);
    }
}
