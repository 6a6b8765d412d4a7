package org.apache.flink.table.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the output type of a function, e.g.
 * {@code @FunctionHint(output = @DataTypeHint("ROW<word STRING, length INT>"))} on a table function class or its
 * {@code eval} method (Flink API; the engine reads {@link #output}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface FunctionHint {

    DataTypeHint[] input() default {};

    boolean isVarArgs() default false;

    DataTypeHint output() default @DataTypeHint();
}
