package dev.rsql.runtime.exec;

/** Processing a record failed; names the job, task and the record's position. */
public final class RecordException extends Exception {

    public RecordException(String jobName, String taskId, String position, Throwable cause) {
        super("job " + jobName + " task " + taskId + ": record at " + position + " failed: " + cause.getMessage(), cause);
    }
}
