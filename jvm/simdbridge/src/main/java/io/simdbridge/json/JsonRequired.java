// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A property that must be in the document: reading an object without it throws
 * {@link JsonBindException} ({@code $.users[0]: missing required property 'email' (byte 17)}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface JsonRequired {}
