package dev.rsql.runtime.state.store;

import dev.rsql.runtime.state.StateException;

/**
 * The column families of a {@link StateStore}. The ids are stored in state changelogs: never change or
 * reuse one.
 */
public enum StateColumnFamily {
    /** The default column family: format version, key groups, the names behind state and operator ids. */
    METADATA(0),
    VALUES(1),
    TIMERS(2);

    private final byte id;

    StateColumnFamily(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    public static StateColumnFamily ofId(int id) {
        for (StateColumnFamily cf : values()) {
            if (cf.id == id) {
                return cf;
            }
        }
        throw new StateException("unknown state column family id " + id);
    }
}
