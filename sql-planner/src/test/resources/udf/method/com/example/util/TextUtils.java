package com.example.util;

import java.util.Locale;

/** An existing utility class: CREATE FUNCTION shout AS 'com.example.util.TextUtils' calls shout(...). */
public final class TextUtils {

    private TextUtils() {
    }

    public static String shout(String s) {
        return s == null ? null : s.toUpperCase(Locale.ROOT) + "!";
    }

    public static String whisper(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }
}
