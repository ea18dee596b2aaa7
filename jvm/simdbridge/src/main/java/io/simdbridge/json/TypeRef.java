// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/**
 * A generic type, captured by a subclass: {@code new TypeRef<List<User>>() {}}.
 *
 * <pre>{@code
 * Map<String, List<Integer>> m = Json.read(bytes, new TypeRef<Map<String, List<Integer>>>() {});
 * }</pre>
 */
public abstract class TypeRef<T> {
    private final Type type;

    protected TypeRef() {
        Type superclass = getClass().getGenericSuperclass();
        if (!(superclass instanceof ParameterizedType p)) {
            throw new IllegalArgumentException("TypeRef needs its type argument: new TypeRef<List<User>>() {}");
        }
        this.type = p.getActualTypeArguments()[0];
    }

    public final Type type() {
        return type;
    }
}
