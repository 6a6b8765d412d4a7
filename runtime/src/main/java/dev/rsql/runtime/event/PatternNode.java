package dev.rsql.runtime.event;

import java.util.List;

/**
 * A JSON value of a pattern's text and where it starts there, so that the compiler can name the place of a mistake.
 * {@code value} is a {@code List<Member>} for an object, a {@code List<PatternNode>} for an array, a String, a
 * Double, a Boolean, or null.
 */
record PatternNode(Kind kind, Object value, int offset) {

    enum Kind { OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL }

    /** One member of an object: its key, where the key starts, and its value. */
    record Member(String key, int keyOffset, PatternNode value) {
    }

    @SuppressWarnings("unchecked")
    List<Member> members() {
        return (List<Member>) value;
    }

    @SuppressWarnings("unchecked")
    List<PatternNode> elements() {
        return (List<PatternNode>) value;
    }

    boolean isScalar() {
        return kind != Kind.OBJECT && kind != Kind.ARRAY;
    }

    /** How the value is written in the pattern, for messages. */
    String describe() {
        switch (kind) {
            case OBJECT:
                return "an object";
            case ARRAY:
                return "an array";
            case STRING:
                return "the string \"" + value + "\"";
            case NUMBER:
                return "the number " + PatternJsonReader.numberText((Double) value);
            default:
                return String.valueOf(value);
        }
    }
}
