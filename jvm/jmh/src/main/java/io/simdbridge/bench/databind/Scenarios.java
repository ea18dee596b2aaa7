// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.simdbridge.json.Json;
import io.simdbridge.json.TypeRef;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The six scenarios (simple, nested, dates, a list of 100, a map of mixed values, a string
 * heavy with escapes): each with its value, its JSON, and how simdbridge and Jackson read and
 * write it. Jackson gets its java.time module with ISO-8601 dates, as its users configure it.
 */
public final class Scenarios {
    public static final ObjectMapper JACKSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    public static final class Simple {
        public String name;
        public int age;
        public boolean active;
        public double score;

        public Simple() {}

        Simple(String name, int age, boolean active, double score) {
            this.name = name;
            this.age = age;
            this.active = active;
            this.score = score;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Simple s && Objects.equals(name, s.name) && age == s.age && active == s.active
                    && Double.compare(score, s.score) == 0;
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, age);
        }
    }

    public static final class Nested {
        public String name;
        public int value;
        public Simple inner;

        @Override
        public boolean equals(Object o) {
            return o instanceof Nested n && Objects.equals(name, n.name) && value == n.value && Objects.equals(inner, n.inner);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, value);
        }
    }

    public static final class Dated {
        public LocalDate date;
        public Instant instant;

        @Override
        public boolean equals(Object o) {
            return o instanceof Dated d && Objects.equals(date, d.date) && Objects.equals(instant, d.instant);
        }

        @Override
        public int hashCode() {
            return Objects.hash(date, instant);
        }
    }

    public static final class Text {
        public String text;

        @Override
        public boolean equals(Object o) {
            return o instanceof Text t && Objects.equals(text, t.text);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(text);
        }
    }

    /** One scenario: a value, its type, and the JSON both libraries read. */
    public record Scenario(String name, Object value, java.lang.reflect.Type type, com.fasterxml.jackson.databind.JavaType javaType,
                           byte[] json) {
        public Object readSimdbridge() {
            return Json.mapper().read(json, type);
        }

        public Object readJackson() throws Exception {
            return JACKSON.readValue(json, javaType);
        }

        public byte[] writeSimdbridge() {
            return Json.write(value);
        }

        public byte[] writeJackson() throws Exception {
            return JACKSON.writeValueAsBytes(value);
        }

        /** "equal", or what differs (Jackson reads small integers of a Map as Integer: compared as Long). */
        public String check() throws Exception {
            Object want = normalize(value);
            if (!want.equals(normalize(readSimdbridge()))) {
                return "simdbridge read a different value";
            }
            if (!want.equals(normalize(readJackson()))) {
                return "Jackson read a different value";
            }
            if (!want.equals(normalize(JACKSON.readValue(writeSimdbridge(), javaType)))) {
                return "simdbridge wrote what Jackson reads differently";
            }
            if (!want.equals(normalize(Json.mapper().read(writeJackson(), type)))) {
                return "Jackson wrote what simdbridge reads differently";
            }
            return "equal";
        }

        private static Object normalize(Object o) {
            if (o instanceof Integer i) {
                return i.longValue();
            }
            if (o instanceof List<?> l) {
                return l.stream().map(Scenario::normalize).toList();
            }
            if (o instanceof Map<?, ?> m) {
                Map<Object, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> out.put(k, v == null ? "null" : normalize(v)));
                return out;
            }
            return o;
        }
    }

    public static List<Scenario> all() throws Exception {
        List<Scenario> out = new ArrayList<>();
        Simple simple = new Simple("Ada Lovelace", 36, true, 98.5);
        out.add(of("simple", simple, Simple.class));
        Nested nested = new Nested();
        nested.name = "outer";
        nested.value = 42;
        nested.inner = new Simple("inner", 7, false, -1.25);
        out.add(of("nested", nested, Nested.class));
        Dated dated = new Dated();
        dated.date = LocalDate.of(2026, 11, 29);
        dated.instant = Instant.parse("2026-11-29T12:34:56.789Z");
        out.add(of("dates", dated, Dated.class));
        List<Simple> list = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            list.add(new Simple("name-" + i, i, i % 2 == 0, i * 1.5));
        }
        out.add(new Scenario("list-of-100", list, new TypeRef<List<Simple>>() {}.type(),
                JACKSON.getTypeFactory().constructCollectionType(List.class, Simple.class), JACKSON.writeValueAsBytes(list)));
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("text", "value");
        map.put("count", 12L);
        map.put("ratio", 0.75);
        map.put("flag", true);
        map.put("nothing", null);
        map.put("list", List.of(1L, "two", 3.5));
        map.put("nested", new LinkedHashMap<>(Map.of("a", 1L)));
        out.add(new Scenario("map-of-mixed", map, new TypeRef<Map<String, Object>>() {}.type(),
                JACKSON.getTypeFactory().constructMapType(LinkedHashMap.class, String.class, Object.class),
                JACKSON.writeValueAsBytes(map)));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            for (char c = 0; c < 32; c++) {
                sb.append(c);
            }
            sb.append("\"quotes\" and \\backslashes\\ / caf\u00e9 \u00fcber \u4e2d\u6587 \uD83D\uDE00 na\u00efve r\u00e9sum\u00e9 ");
        }
        Text text = new Text();
        text.text = sb.toString();
        out.add(of("escaped-string", text, Text.class));
        return out;
    }

    private static Scenario of(String name, Object value, Class<?> type) throws Exception {
        return new Scenario(name, value, type, JACKSON.constructType(type), JACKSON.writeValueAsBytes(value));
    }
}
