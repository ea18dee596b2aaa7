// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The JSON name of a property (on a field, a record component, a getter, a setter, a creator's
 * parameter or an enum constant).
 *
 * <pre>{@code
 * record User(@JsonProperty("_id") String id, String name) {}
 * }</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface JsonProperty {
    String value();
}
