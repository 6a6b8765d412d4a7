package dev.rsql.runtime.connector.redis;

import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.format.json.ValueText;
import dev.rsql.runtime.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Point lookups of one task: GET (mode string), HGET or HGETALL (hashmap), HMGET of the field columns (hash). A
 * value that does not fit its column is an error naming the key and column. A lost connection is opened again once
 * per lookup.
 */
final class RedisLookupReader implements LookupReader {

    private final RedisOptions options;
    private final RowType columns;
    /** Mode hashmap joined on key and field, with the field first in the lookup key. */
    private final boolean fieldFirst;
    private final String[] hmget;
    private RedisConnection connection;

    RedisLookupReader(RedisOptions options, RowType columns, boolean fieldFirst) throws IOException {
        this.options = options;
        this.columns = columns;
        this.fieldFirst = fieldFirst;
        this.hmget = new String[columns.size() + 1];
        hmget[0] = "HMGET";
        for (int i = 1; i < columns.size(); i++) {
            hmget[i + 1] = columns.name(i);
        }
        this.connection = options.connect();
    }

    @Override
    public List<Object[]> lookup(Object[] key) throws Exception {
        try {
            return query(key);
        } catch (RedisConnection.RedisException e) {
            throw new IOException("table " + options.table() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            connection.close();
            connection = options.connect(); // once: a second failure is the lookup's
            return query(key);
        }
    }

    private List<Object[]> query(Object[] lookupKey) throws IOException {
        Object keyValue = fieldFirst ? lookupKey[1] : lookupKey[0];
        String key = ValueText.toText(columns.type(0), keyValue, false);
        switch (options.mode()) {
            case STRING: {
                Object v = connection.call("GET", key);
                return v == null ? List.of() : List.<Object[]>of(row(keyValue, 1, (String) v));
            }
            case HASHMAP: {
                if (lookupKey.length == 2) {
                    Object field = fieldFirst ? lookupKey[0] : lookupKey[1];
                    Object v = connection.call("HGET", key, ValueText.toText(columns.type(1), field, false));
                    if (v == null) {
                        return List.of();
                    }
                    Object[] r = row(keyValue, 2, (String) v);
                    r[1] = field;
                    return List.<Object[]>of(r);
                }
                List<?> all = (List<?>) connection.call("HGETALL", key);
                List<Object[]> rows = new ArrayList<>(all.size() / 2);
                for (int i = 0; i + 1 < all.size(); i += 2) {
                    Object[] r = row(keyValue, 2, (String) all.get(i + 1));
                    r[1] = parse(1, (String) all.get(i), key);
                    rows.add(r);
                }
                return rows;
            }
            default: {
                hmget[1] = key;
                List<?> values = (List<?>) connection.call(hmget);
                Object[] r = new Object[columns.size()];
                r[0] = keyValue;
                boolean any = false;
                for (int i = 1; i < r.length; i++) {
                    String v = (String) values.get(i - 1);
                    any |= v != null;
                    r[i] = v == null ? null : parse(i, v, key);
                }
                return any ? List.<Object[]>of(r) : List.of();
            }
        }
    }

    private Object[] row(Object key, int valueColumn, String value) {
        Object[] r = new Object[columns.size()];
        r[0] = key;
        r[valueColumn] = parse(valueColumn, value, String.valueOf(key));
        return r;
    }

    private Object parse(int column, String text, String key) {
        try {
            return ValueText.fromString(columns.type(column), text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table " + options.table() + ", redis key '" + key + "': column "
                    + columns.name(column) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
