// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/** Codecs of the JSON scalars: strings, numbers, booleans, and the types written as strings. */
final class ScalarCodecs {
    private ScalarCodecs() {}

    static final Codec<String> STRING = new Codec<>() {
        @Override
        String read(BindingTape t, int w) {
            return t.string(w);
        }

        @Override
        void write(JsonWriter out, String v) {
            out.writeString(v);
        }
    };

    static final Codec<Integer> INT = new Codec<>() {
        @Override
        Integer read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? null : t.intValue(w);
        }

        @Override
        void write(JsonWriter out, Integer v) {
            out.writeInt(v);
        }
    };

    static final Codec<Long> LONG = new Codec<>() {
        @Override
        Long read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? null : t.longValue(w);
        }

        @Override
        void write(JsonWriter out, Long v) {
            out.writeLong(v);
        }
    };

    static final Codec<Short> SHORT = new Codec<>() {
        @Override
        Short read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? null : t.shortValue(w);
        }

        @Override
        void write(JsonWriter out, Short v) {
            out.writeInt(v);
        }
    };

    static final Codec<Byte> BYTE = new Codec<>() {
        @Override
        Byte read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? null : t.byteValue(w);
        }

        @Override
        void write(JsonWriter out, Byte v) {
            out.writeInt(v);
        }
    };

    static final Codec<Double> DOUBLE = new Codec<>() {
        @Override
        Double read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? null : t.doubleValue(w);
        }

        @Override
        void write(JsonWriter out, Double v) {
            out.writeDouble(v);
        }
    };

    static final Codec<Float> FLOAT = new Codec<>() {
        @Override
        Float read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? null : (float) t.doubleValue(w);
        }

        @Override
        void write(JsonWriter out, Float v) {
            out.writeFloat(v);
        }
    };

    static final Codec<Boolean> BOOLEAN = new Codec<>() {
        @Override
        Boolean read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? null : t.booleanValue(w);
        }

        @Override
        void write(JsonWriter out, Boolean v) {
            out.writeBoolean(v);
        }
    };

    static final Codec<Character> CHAR = new Codec<>() {
        @Override
        Character read(BindingTape t, int w) {
            return t.kind(w) == BindingTape.NULL ? null : t.charValue(w);
        }

        @Override
        void write(JsonWriter out, Character v) {
            out.writeString(String.valueOf(v.charValue()));
        }
    };

    static final Codec<BigInteger> BIG_INTEGER = new Codec<>() {
        @Override
        BigInteger read(BindingTape t, int w) {
            return t.bigInteger(w);
        }

        @Override
        void write(JsonWriter out, BigInteger v) {
            out.writeAscii(v.toString());
        }
    };

    static final Codec<BigDecimal> BIG_DECIMAL = new Codec<>() {
        @Override
        BigDecimal read(BindingTape t, int w) {
            return t.bigDecimal(w);
        }

        @Override
        void write(JsonWriter out, BigDecimal v) {
            out.writeAscii(v.toString());
        }
    };

    /**
     * A type written as an ASCII string and parsed back from one (dates, UUIDs): its toString
     * must be ASCII with nothing JSON escapes, as java.time's and UUID's are.
     */
    static <T> Codec<T> textual(String expected, Function<String, T> parse) {
        return new Codec<>() {
            @Override
            T read(BindingTape t, int w) {
                if (!t.is(w, BindingTape.STRING, expected)) {
                    return null;
                }
                String s = t.text(w);
                try {
                    return parse.apply(s);
                } catch (DateTimeParseException | IllegalArgumentException e) {
                    throw t.mismatch(w, expected, "\"" + s + "\"");
                }
            }

            @Override
            void write(JsonWriter out, T v) {
                out.writeQuotedAscii(v.toString());
            }
        };
    }

    /** Reads a common form from a string's bytes, or returns null (IsoTime). */
    interface FastParse<T> {
        T parse(byte[] bytes, int at, int length);
    }

    /**
     * A java.time type: its common ISO-8601 forms read from the tape's bytes ({@link IsoTime}),
     * any other text given to the JDK's parse; written as its toString.
     */
    static <T> Codec<T> time(String expected, FastParse<T> fast, Function<String, T> parse) {
        Codec<T> slow = textual(expected, parse);
        return new Codec<>() {
            @Override
            T read(BindingTape t, int w) {
                if (t.kind(w) == BindingTape.STRING) {
                    T v = fast.parse(t.stringBytes(w), t.stringStart(w), t.stringLength(w));
                    if (v != null) {
                        return v;
                    }
                }
                return slow.read(t, w);
            }

            @Override
            void write(JsonWriter out, T v) {
                slow.write(out, v);
            }
        };
    }

    static final Map<Class<?>, Codec<?>> BY_CLASS = Map.ofEntries(
            Map.entry(String.class, STRING),
            Map.entry(int.class, INT), Map.entry(Integer.class, INT),
            Map.entry(long.class, LONG), Map.entry(Long.class, LONG),
            Map.entry(short.class, SHORT), Map.entry(Short.class, SHORT),
            Map.entry(byte.class, BYTE), Map.entry(Byte.class, BYTE),
            Map.entry(double.class, DOUBLE), Map.entry(Double.class, DOUBLE),
            Map.entry(float.class, FLOAT), Map.entry(Float.class, FLOAT),
            Map.entry(boolean.class, BOOLEAN), Map.entry(Boolean.class, BOOLEAN),
            Map.entry(char.class, CHAR), Map.entry(Character.class, CHAR),
            Map.entry(BigInteger.class, BIG_INTEGER), Map.entry(BigDecimal.class, BIG_DECIMAL),
            Map.entry(LocalDate.class, time("an ISO-8601 date", IsoTime::date, LocalDate::parse)),
            Map.entry(LocalDateTime.class, time("an ISO-8601 date-time", IsoTime::dateTime, LocalDateTime::parse)),
            Map.entry(Instant.class, time("an ISO-8601 instant", IsoTime::instant, Instant::parse)),
            Map.entry(OffsetDateTime.class, time("an ISO-8601 date-time with offset", IsoTime::offsetDateTime,
                    OffsetDateTime::parse)),
            Map.entry(UUID.class, textual("a UUID", UUID::fromString)));
}
