package dev.rsql.runtime.exec;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A checkpoint every task acknowledged: its id, per task the source position, watermark and state snapshot, and what
 * it belongs to ({@link StateIdentity}; null in checkpoints written before they recorded it). Kept as
 * {@code chk-<id>/_metadata.json} under the job's checkpoint directory; written last, so a directory without it is
 * an unfinished checkpoint and is ignored.
 */
record CompletedCheckpoint(long id, Path dir, Map<String, TaskSnapshot> tasks, StateIdentity identity) {

    static final String METADATA = "_metadata.json";

    static Path dirOf(Path root, long id) {
        return root.resolve("chk-" + id);
    }

    void write() throws IOException {
        JSONArray list = new JSONArray();
        for (TaskSnapshot t : tasks.values()) {
            JSONObject o = new JSONObject();
            o.put("task", t.taskId());
            o.put("position", t.position());
            o.put("watermark", t.watermark());
            o.put("state", t.stateDir());
            list.add(o);
        }
        JSONObject meta = new JSONObject();
        meta.put("id", id);
        meta.put("tasks", list);
        if (identity != null) {
            meta.put("identity", identity.toJson());
        }
        Files.createDirectories(dir);
        Path tmp = dir.resolve(METADATA + ".tmp");
        Files.writeString(tmp, meta.toJSONString(), StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(METADATA), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The latest complete checkpoint under {@code root}, or null. */
    static CompletedCheckpoint latest(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return null;
        }
        Path best = null;
        long bestId = -1;
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (name.startsWith("chk-") && Files.isRegularFile(d.resolve(METADATA))) {
                    long id = Long.parseLong(name.substring(4));
                    if (id > bestId) {
                        bestId = id;
                        best = d;
                    }
                }
            }
        }
        return best == null ? null : read(best);
    }

    private static CompletedCheckpoint read(Path dir) throws IOException {
        JSONObject meta = JSON.parseObject(Files.readString(dir.resolve(METADATA), StandardCharsets.UTF_8));
        Map<String, TaskSnapshot> tasks = new LinkedHashMap<>();
        JSONArray list = meta.getJSONArray("tasks");
        for (int i = 0; i < list.size(); i++) {
            JSONObject o = list.getJSONObject(i);
            tasks.put(o.getString("task"), new TaskSnapshot(o.getString("task"), o.getLongValue("position"),
                    o.getLongValue("watermark"), o.getString("state")));
        }
        return new CompletedCheckpoint(meta.getLongValue("id"), dir, tasks,
                StateIdentity.fromJson(meta.getJSONObject("identity")));
    }

    /**
     * Deletes the checkpoint directories under root without metadata: checkpoints a process died in. Only for the
     * holder of the job's {@link StateDirLock}, which proves that no other process is writing one. Returns their names.
     */
    static List<String> deleteUnfinished(Path root) throws IOException {
        return delete(root, d -> !Files.isRegularFile(d.resolve(METADATA)));
    }

    /** Deletes the checkpoints before {@code id}, which a completed checkpoint {@code id} supersedes. */
    static List<String> deleteOlderThan(Path root, long id) throws IOException {
        return delete(root, d -> idOf(d) < id);
    }

    private static List<String> delete(Path root, Predicate<Path> which) throws IOException {
        List<String> deleted = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return deleted;
        }
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                if (idOf(d) >= 0 && which.test(d)) {
                    deleteTree(d);
                    deleted.add(d.getFileName().toString());
                }
            }
        }
        return deleted;
    }

    /** The id of a checkpoint directory, or -1 for anything else. */
    private static long idOf(Path dir) {
        String name = dir.getFileName().toString();
        if (!name.startsWith("chk-")) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(4));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted((a, b) -> b.getNameCount() - a.getNameCount())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
