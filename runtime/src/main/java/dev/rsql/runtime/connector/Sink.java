package dev.rsql.runtime.connector;

/** The writable side of a table, shared by the tasks of one job; each task writes through its own writer. */
public interface Sink extends AutoCloseable {

    SinkWriter createWriter(SinkWriterContext context) throws Exception;

    /** Releases shared resources after every writer is closed. */
    @Override
    void close();
}
