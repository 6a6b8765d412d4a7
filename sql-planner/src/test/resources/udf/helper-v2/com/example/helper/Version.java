package com.example.helper;

/** A library both jars bundle, in different versions. */
public final class Version {

    private Version() {
    }

    public static String get() {
        return "v2";
    }
}
