package dev.rsql.runtime.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CallStackTest {

    private static StackTraceElement frame(String loader, String className, String method) {
        return new StackTraceElement(loader, null, null, className, method, null, -1);
    }

    private static final StackTraceElement TASK = frame("app", "dev.rsql.runtime.exec.SourceTask", "emit");
    private static final StackTraceElement GENERATED = frame(null, "dev.rsql.generated.Job1$Calc0", "apply");

    @Test
    void theFunctionIsTheOutermostFrameFromAnExtJar() {
        StackTraceElement[] stack = {
            frame("app", "java.util.ArrayList", "add"),
            frame("ext:udfs.jar", "com.example.Helper", "grow"),
            frame("ext:udfs.jar", "com.example.Hog", "eval"),
            GENERATED, TASK,
        };
        assertEquals("com.example.Hog.eval (udfs.jar)", CallStack.function(stack));
    }

    @Test
    void withoutAnExtJarItIsWhatTheGeneratedCodeCalled() {
        StackTraceElement[] stack = {
            frame("app", "java.util.regex.Pattern$Loop", "match"),
            frame("app", "dev.rsql.runtime.functions.StringFunctions", "regexpExtract"),
            GENERATED, TASK,
        };
        assertEquals("dev.rsql.runtime.functions.StringFunctions.regexpExtract", CallStack.function(stack));
        assertNull(CallStack.function(new StackTraceElement[] {TASK}));
    }

    @Test
    void aThreadInSystemExitIsRecognised() {
        StackTraceElement[] exiting = {
            frame(null, "java.lang.Thread", "join"),
            frame(null, "java.lang.Shutdown", "exit"),
            frame(null, "java.lang.Runtime", "exit"),
            frame(null, "java.lang.System", "exit"),
            frame("ext:udfs.jar", "com.example.Quit", "eval"),
            GENERATED, TASK,
        };
        assertTrue(CallStack.inSystemExit(exiting));
        assertFalse(CallStack.inSystemExit(new StackTraceElement[] {GENERATED, TASK}));
    }
}
