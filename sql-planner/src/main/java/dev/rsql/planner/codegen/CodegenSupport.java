package dev.rsql.planner.codegen;

import org.apache.calcite.avatica.util.ByteString;

/** Conversions generated code calls where Calcite's value representation differs from the runtime's. */
public final class CodegenSupport {

    private CodegenSupport() {
    }

    /** Runtime binary values are {@code byte[]}; Calcite's generated code works on {@link ByteString}. */
    public static ByteString toByteString(Object bytes) {
        return bytes == null ? null : new ByteString((byte[]) bytes);
    }

    public static byte[] toBytes(ByteString bytes) {
        return bytes == null ? null : bytes.getBytes();
    }
}
