package dev.rsql.runtime.exec;

/** Decoding or processing a record failed; the message names the job, task and the record's position. */
public final class RecordException extends Exception {

    RecordException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Processing a decoded record of {@code table} (or tables, after an exchange) failed in an operator or sink. */
    static RecordException processing(String jobName, String taskId, String table, String position,
                                      Throwable cause) {
        return new RecordException("job " + jobName + " task " + taskId + ": table " + table + ": record at "
                + position + " failed: " + cause.getMessage(), cause);
    }

    /** The JVM failed (out of memory, stack overflow) while the task had a record in hand, in a function if known. */
    static RecordException fatal(String jobName, String taskId, String position, String function, Throwable error) {
        return new RecordException("job " + jobName + " task " + taskId + ": " + error
                + (function == null ? "" : " in function " + function) + " at record " + position, error);
    }

    /** A record could not be decoded and the table's policy is to fail. */
    static RecordException decoding(String jobName, String taskId, String table, String position, Throwable cause) {
        return new RecordException("job " + jobName + " task " + taskId + ": table " + table
                + ": cannot decode the record at " + position + ": " + cause.getMessage(), cause);
    }
}
