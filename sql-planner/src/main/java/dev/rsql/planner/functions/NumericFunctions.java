package dev.rsql.planner.functions;

import java.util.Locale;

/** Numeric and conversion built-ins of the Blink dialect that Calcite does not have with the same semantics. */
public final class NumericFunctions {

    private NumericFunctions() {
    }

    /** LOG(x): natural logarithm. */
    public static Double log(double x) {
        return x <= 0 ? null : Math.log(x);
    }

    /** LOG(base, x): logarithm of x to the base; NULL for a non-positive x or base, or base 1. */
    public static Double log(double base, double x) {
        if (x <= 0 || base <= 0 || base == 1) {
            return null;
        }
        return Math.log(x) / Math.log(base);
    }

    public static Double log2(double x) {
        return x <= 0 ? null : Math.log(x) / Math.log(2);
    }

    public static double e() {
        return Math.E;
    }

    public static double pi() {
        return Math.PI;
    }

    public static double sinh(double x) {
        return Math.sinh(x);
    }

    public static double cosh(double x) {
        return Math.cosh(x);
    }

    public static double tanh(double x) {
        return Math.tanh(x);
    }

    public static boolean isnan(double x) {
        return Double.isNaN(x);
    }

    public static int bitand(int a, int b) {
        return a & b;
    }

    public static long bitand(long a, long b) {
        return a & b;
    }

    public static int bitor(int a, int b) {
        return a | b;
    }

    public static long bitor(long a, long b) {
        return a | b;
    }

    public static int bitxor(int a, int b) {
        return a ^ b;
    }

    public static long bitxor(long a, long b) {
        return a ^ b;
    }

    public static int bitnot(int a) {
        return ~a;
    }

    public static long bitnot(long a) {
        return ~a;
    }

    /** BIN(n): binary digits of n (two's complement for negatives). */
    public static String bin(long n) {
        return Long.toBinaryString(n);
    }

    /** CONV(n, fromBase, toBase) for a number: its decimal digits read in fromBase. */
    public static String conv(long n, int fromBase, int toBase) {
        return conv(Long.toString(n), fromBase, toBase);
    }

    /**
     * CONV(s, fromBase, toBase), as in Hive/Flink: bases 2..36 (a negative toBase gives a signed result); the digits
     * of s (optionally after '-') are read up to the first invalid one as an unsigned 64-bit number; a negative
     * number converts as its two's complement. NULL for a base out of range.
     */
    public static String conv(String s, int fromBase, int toBase) {
        if (fromBase < Character.MIN_RADIX || fromBase > Character.MAX_RADIX
                || Math.abs(toBase) < Character.MIN_RADIX || Math.abs(toBase) > Character.MAX_RADIX) {
            return null;
        }
        String t = s.trim();
        boolean negative = t.startsWith("-");
        int i = negative ? 1 : 0;
        long v = 0;
        boolean overflow = false;
        for (; i < t.length(); i++) {
            int d = Character.digit(t.charAt(i), fromBase);
            if (d < 0) {
                break;
            }
            // unsigned v * fromBase + d, saturating at 2^64 - 1
            long max = Long.divideUnsigned(-1L - d, fromBase);
            if (Long.compareUnsigned(v, max) > 0) {
                overflow = true;
                break;
            }
            v = v * fromBase + d;
        }
        if (overflow) {
            v = -1L;
        }
        if (negative && toBase > 0) {
            v = v == -1L && overflow ? -1L : -v;
        }
        boolean negativeOut = false;
        if (toBase < 0) {
            if (negative) {
                negativeOut = v != 0;
            } else if (v < 0) {
                v = -v;
                negativeOut = true;
            }
        }
        String out = Long.toUnsignedString(v, Math.abs(toBase)).toUpperCase(Locale.ROOT);
        return negativeOut ? "-" + out : out;
    }
}
