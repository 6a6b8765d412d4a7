package dev.rsql.cli.server;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.FileAppender;
import dev.rsql.runtime.exec.JobMdc;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each job's own log, {@code log/<job>.log}, in a process that runs several (server mode): the lines logged on threads
 * carrying the job's name ({@link JobMdc}) go to its file as well as to the process's log. Attached to the root logger
 * while the server runs, so it sees what the configured levels let through.
 */
final class JobLogs extends AppenderBase<ILoggingEvent> {

    private static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

    private final Path logDir;
    private final Map<String, FileAppender<ILoggingEvent>> files = new ConcurrentHashMap<>();

    private JobLogs(Path logDir) {
        this.logDir = logDir;
    }

    /** Starts writing job logs under {@code logDir}, or returns null when logging is not logback (nothing to do). */
    static JobLogs attach(Path logDir) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext)) {
            return null;
        }
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        JobLogs logs = new JobLogs(logDir);
        logs.setContext(context);
        logs.setName("rsql-job-logs");
        logs.start();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(logs);
        return logs;
    }

    /** The file of a job's log. */
    Path file(String job) {
        return logDir.resolve(job + ".log");
    }

    @Override
    protected void append(ILoggingEvent event) {
        String job = event.getMDCPropertyMap().get(JobMdc.KEY);
        if (job == null) {
            return;
        }
        files.computeIfAbsent(job, this::open).doAppend(event);
    }

    private FileAppender<ILoggingEvent> open(String job) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(getContext());
        encoder.setPattern(PATTERN);
        encoder.start();
        FileAppender<ILoggingEvent> f = new FileAppender<>();
        f.setContext(getContext());
        f.setName("rsql-job-log-" + job);
        f.setFile(file(job).toString());
        f.setAppend(true);
        f.setEncoder(encoder);
        f.start();
        return f;
    }

    /** Detaches from the root logger and closes the files. */
    void detach() {
        Logger root = ((LoggerContext) getContext()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAppender(this);
        stop();
        files.values().forEach(FileAppender::stop);
        files.clear();
    }
}
