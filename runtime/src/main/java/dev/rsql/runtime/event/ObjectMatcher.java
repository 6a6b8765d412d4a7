package dev.rsql.runtime.event;

/** A pattern object: every field must match, and one branch of each {@code $or}. */
final class ObjectMatcher {

    /** What a nested pattern is matched against when the event has nothing at its path. */
    static final Object MISSING = new Object();

    private final FieldMatcher[] fields;
    private final ObjectMatcher[][] ors;

    ObjectMatcher(FieldMatcher[] fields, ObjectMatcher[][] ors) {
        this.fields = fields;
        this.ors = ors;
    }

    FieldMatcher[] fields() {
        return fields;
    }

    boolean matches(Object event) {
        for (FieldMatcher f : fields) {
            if (!f.matches(event)) {
                return false;
            }
        }
        for (ObjectMatcher[] branches : ors) {
            boolean any = false;
            for (ObjectMatcher b : branches) {
                if (b.matches(event)) {
                    any = true;
                    break;
                }
            }
            if (!any) {
                return false;
            }
        }
        return true;
    }
}
