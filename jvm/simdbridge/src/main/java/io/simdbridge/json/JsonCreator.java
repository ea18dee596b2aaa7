// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The constructor that reads a class: its parameters are the properties, named by
 * {@link JsonProperty} or, where the class was compiled with {@code -parameters}, by their names.
 *
 * <pre>{@code
 * final class Point {
 *     final int x, y;
 *     @JsonCreator Point(@JsonProperty("x") int x, @JsonProperty("y") int y) { this.x = x; this.y = y; }
 *     public int getX() { return x; }
 *     public int getY() { return y; }
 * }
 * }</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.CONSTRUCTOR)
public @interface JsonCreator {}
