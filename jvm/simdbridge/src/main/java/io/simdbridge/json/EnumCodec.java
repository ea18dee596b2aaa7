// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.lang.reflect.Field;

/** An enum by its constants' names (or their {@link JsonProperty} names), matched as bytes. */
final class EnumCodec<E extends Enum<E>> extends Codec<E> {
    private final String expected; // "one of the constants of Color", for a mismatch
    private final E[] constants;
    private final Keys keys;
    private final byte[][] written; // each constant as a quoted JSON string

    private EnumCodec(Class<E> type) {
        this.expected = "one of the constants of " + type.getSimpleName();
        this.constants = type.getEnumConstants();
        String[] names = new String[constants.length];
        written = new byte[constants.length][];
        for (int i = 0; i < constants.length; i++) {
            names[i] = constants[i].name();
            try {
                Field f = type.getField(constants[i].name());
                JsonProperty p = f.getAnnotation(JsonProperty.class);
                if (p != null) {
                    names[i] = p.value();
                }
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(e);
            }
            JsonWriter w = new JsonWriter(names[i].length() * 6 + 2);
            w.writeString(names[i]);
            written[i] = w.toByteArray();
        }
        keys = new Keys(names);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static EnumCodec<?> of(Class<?> type) {
        return new EnumCodec(type);
    }

    @Override
    E read(BindingTape t, int w) {
        return t.is(w, BindingTape.STRING, expected) ? constant(t, w) : null;
    }

    E constant(BindingTape t, int w) {
        int i = keys.find(t, w, 0);
        if (i < 0) {
            throw t.mismatch(w, expected, "\"" + t.text(w) + "\"");
        }
        return constants[i];
    }

    @Override
    void write(JsonWriter out, E value) {
        out.writeRaw(written[value.ordinal()]);
    }

    void writeConstant(JsonWriter out, Enum<?> value) {
        out.writeRaw(written[value.ordinal()]);
    }
}
