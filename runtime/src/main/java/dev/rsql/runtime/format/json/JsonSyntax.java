package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONFactory;
import com.alibaba.fastjson2.JSONReader;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

/**
 * How strictly JSON is read, and the one walker of values the schema does not describe. fastjson2 accepts much that
 * is not JSON (single-quoted strings, missing and trailing commas, invalid UTF-8 read as U+FFFD); strict reading (the
 * default) rejects those, option {@code lenient} keeps fastjson2's leniency and also allows unquoted member names.
 * Either way nesting is limited to {@code max-nesting-depth} levels and undeclared values are walked with a depth
 * counter instead of fastjson2's recursive skip, so that no record can exhaust the stack. One instance per decoder.
 */
final class JsonSyntax {

    static final String LENIENT = "lenient";
    static final String MAX_NESTING_DEPTH = "max-nesting-depth";
    static final int DEFAULT_MAX_NESTING_DEPTH = 1000;

    final boolean strict;
    final int maxDepth;
    final JSONReader.Context context = JSONFactory.createReadContext();
    /** Bit l is set when level l of the walk in progress is an object (else an array). */
    private final long[] objectLevels;
    /**
     * Whether a comma followed the object or array just closed, or null after a scalar. fastjson2 sets its comma flag
     * when it passes a comma but never clears it at a closing bracket, so there the flag may still tell about an
     * earlier value; containers are closed here instead, and this tells what followed.
     */
    private Boolean commaAfterClose;

    JsonSyntax(boolean lenient, int maxDepth) {
        this.strict = !lenient;
        this.maxDepth = maxDepth;
        this.objectLevels = new long[maxDepth / 64 + 1];
        context.config(lenient ? JSONReader.Feature.AllowUnQuotedFieldNames : JSONReader.Feature.DisableSingleQuote);
    }

    /** From the format options (prefix {@code json.} removed). */
    static JsonSyntax of(Options options) {
        boolean lenient = options.getBoolean(false, LENIENT);
        int depth = options.getInt(DEFAULT_MAX_NESTING_DEPTH, MAX_NESTING_DEPTH);
        if (depth < 1 || depth > 100_000) {
            throw new ConfigException("option 'json." + MAX_NESTING_DEPTH + "' must be between 1 and 100000, got "
                    + depth);
        }
        return new JsonSyntax(lenient, depth);
    }

    static JsonSyntax defaults() {
        return new JsonSyntax(false, DEFAULT_MAX_NESTING_DEPTH);
    }

    /** Before reading a record: forgets what a failed record left. */
    void startRecord() {
        commaAfterClose = null;
    }

    /** Before entering an object or array at {@code level} (the record's object is level 1). */
    void enter(int level) throws ValueException {
        if (level > maxDepth) {
            throw new ValueException(null, "nested deeper than " + maxDepth + " levels (option json."
                    + MAX_NESTING_DEPTH + ")");
        }
    }

    /**
     * Whether the object ends here ('}' consumed). {@code first}: no member was read yet. Rejects a comma before the
     * '}' and a member that does not follow a comma.
     */
    boolean objectEnd(JSONReader r, boolean first) throws ValueException {
        if (!strict) {
            return r.nextIfObjectEnd();
        }
        // right after '{' the flag is stale; a ',' there is rejected by fastjson2's name reader
        boolean comma = !first && comma(r);
        if (r.current() == '}') {
            if (comma) {
                throw malformed("a comma before '}'");
            }
            close(r, '}');
            return true;
        }
        if (!first && !comma) {
            throw malformed("a comma is missing between members");
        }
        return false;
    }

    /** As {@link #objectEnd} for arrays. */
    boolean arrayEnd(JSONReader r, boolean first) throws ValueException {
        if (!strict) {
            return r.nextIfArrayEnd();
        }
        if (first && r.current() == ',') {
            throw malformed("a comma after '['");
        }
        boolean comma = !first && comma(r);
        if (r.current() == ']') {
            if (comma) {
                throw malformed("a comma before ']'");
            }
            close(r, ']');
            return true;
        }
        if (!first && !comma) {
            throw malformed("a comma is missing between elements");
        }
        return false;
    }

    /** Consumes a closing bracket and a comma after it, noting whether there was one. */
    private void close(JSONReader r, char bracket) {
        r.nextIfMatch(bracket);
        commaAfterClose = r.nextIfComma();
    }

    /** Whether a comma followed the last value read. */
    private boolean comma(JSONReader r) {
        Boolean c = commaAfterClose;
        if (c == null) {
            return r.hasComma();
        }
        commaAfterClose = null;
        return c;
    }

    /** Before reading a value: rejects what fastjson2 would read leniently (a single-quoted string, no value). */
    void value(JSONReader r) throws ValueException {
        if (strict) {
            char c = r.current();
            if (c == '\'') {
                throw malformed("a single-quoted string");
            }
            if (c == ',' || c == '}' || c == ']') {
                throw malformed("a value is missing");
            }
        }
    }

    /** After the record: nothing, not even a comma, may follow it. */
    boolean atEnd(JSONReader r) {
        return r.isEnd() && !(strict && comma(r));
    }

    /** Skips the value at the reader, of any nesting, in the container at {@code level}. */
    void skip(JSONReader r, int level) throws ValueException {
        walk(r, level, null);
    }

    /** The value at the reader as compact JSON text (objects and arrays of a STRING column, error messages). */
    String text(JSONReader r, int level) throws ValueException {
        StringBuilder out = new StringBuilder();
        walk(r, level, out);
        return out.toString();
    }

    /** Walks one value iteratively; {@code open} counts the containers it is inside, {@code out} gets its text. */
    private void walk(JSONReader r, int level, StringBuilder out) throws ValueException {
        int open = 0;
        while (true) {
            boolean first;
            if (r.nextIfObjectStart()) {
                open = push(level, open, true);
                append(out, '{');
                first = true;
            } else if (r.nextIfArrayStart()) {
                open = push(level, open, false);
                append(out, '[');
                first = true;
            } else {
                scalar(r, out);
                first = false;
            }
            // close the containers that end here, then stand before the next value
            while (open > 0) {
                boolean object = (objectLevels[open >> 6] & (1L << open)) != 0;
                if (object ? objectEnd(r, first) : arrayEnd(r, first)) {
                    append(out, object ? '}' : ']');
                    open--;
                    first = false;
                    continue;
                }
                if (!first) {
                    append(out, ',');
                }
                if (object) {
                    if (out == null) {
                        r.readFieldNameHashCode();
                    } else {
                        out.append(JSON.toJSONString(r.readFieldName())).append(':');
                    }
                }
                break;
            }
            if (open == 0) {
                return;
            }
        }
    }

    private int push(int level, int open, boolean object) throws ValueException {
        int now = open + 1;
        enter(level + now);
        if (object) {
            objectLevels[now >> 6] |= 1L << now;
        } else {
            objectLevels[now >> 6] &= ~(1L << now);
        }
        return now;
    }

    private void scalar(JSONReader r, StringBuilder out) throws ValueException {
        value(r);
        if (out == null && strict) {
            // fastjson2's skip of a scalar is strict about what follows it: lenient skipping reads the value instead
            r.skipValue();
            return;
        }
        Object text;
        if (r.nextIfNull()) {
            text = "null";
        } else if (r.isString()) {
            text = JSON.toJSONString(r.readString());
        } else if (r.isNumber()) {
            text = r.readNumber();
        } else if (r.current() == 't' || r.current() == 'f') {
            text = r.readBoolValue();
        } else {
            throw malformed("unexpected character '" + r.current() + "'");
        }
        if (out != null) {
            out.append(text);
        }
    }

    private static void append(StringBuilder out, char c) {
        if (out != null) {
            out.append(c);
        }
    }

    static ValueException malformed(String what) {
        return new ValueException(null, "malformed JSON: " + what);
    }
}
