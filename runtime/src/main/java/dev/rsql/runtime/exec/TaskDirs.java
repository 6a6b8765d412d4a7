package dev.rsql.runtime.exec;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/** File names for task ids, which may contain any character a topic or file name does. */
final class TaskDirs {

    private TaskDirs() {
    }

    /** A readable, file-system-safe and collision-free name for a task id. */
    static String safeName(String taskId) {
        String readable = taskId.replaceAll("[^A-Za-z0-9._-]", "_");
        if (readable.equals(taskId)) {
            return taskId;
        }
        CRC32 crc = new CRC32();
        crc.update(taskId.getBytes(StandardCharsets.UTF_8));
        return readable + "-" + Long.toHexString(crc.getValue());
    }
}
