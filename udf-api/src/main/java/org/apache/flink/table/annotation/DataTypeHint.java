package org.apache.flink.table.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A SQL type written as text, e.g. {@code @DataTypeHint("ROW<word STRING, length INT>")} (Flink API; the engine reads
 * only {@link #value}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER})
public @interface DataTypeHint {

    String value() default "";
}
