// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Other names a property is read by, beside its own (which is the one written): as Jackson's
 * and fastjson2's aliases. Where a document has the property under two of its names, the last
 * wins (or, with {@code duplicateKeys(FAIL)}, the read fails).
 *
 * <pre>{@code
 * record User(@JsonAlias({"user_name", "login"}) String name) {}
 * }</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface JsonAlias {
    String[] value();
}
