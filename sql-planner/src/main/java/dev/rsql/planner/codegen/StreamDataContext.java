package dev.rsql.planner.codegen;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@code root} that Calcite-generated expression code reads session values from. In a stream, time functions
 * such as CURRENT_TIMESTAMP are evaluated per record (as in Flink), not once per query.
 */
public final class StreamDataContext implements DataContext {

    private static final JavaTypeFactory TYPE_FACTORY = new JavaTypeFactoryImpl();

    private final TimeZone timeZone;
    private final Random random = new Random();
    private final AtomicBoolean cancel = new AtomicBoolean();

    public StreamDataContext() {
        this(TimeZone.getTimeZone("UTC"));
    }

    public StreamDataContext(TimeZone timeZone) {
        this.timeZone = timeZone;
    }

    @Override
    public SchemaPlus getRootSchema() {
        return null;
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
        return TYPE_FACTORY;
    }

    @Override
    public QueryProvider getQueryProvider() {
        return null;
    }

    @Override
    public Object get(String name) {
        switch (name) {
            case "currentTimestamp":
            case "utcTimestamp":
                return System.currentTimeMillis();
            case "localTimestamp": {
                long now = System.currentTimeMillis();
                return now + timeZone.getOffset(now);
            }
            case "timeZone":
                return timeZone;
            case "locale":
                return Locale.ROOT;
            case "random":
                return random;
            case "cancelFlag":
                return cancel;
            default:
                return null;
        }
    }
}
