// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.json;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Data binding with the default {@link JsonMapper}: records and classes read from JSON through
 * the native engine (one crossing per document) and written back.
 *
 * <pre>{@code
 * record Friend(int id, String name) {}
 * record User(@JsonProperty("_id") String id, int age, List<String> tags, List<Friend> friends) {}
 *
 * User u = Json.read(bytes, User.class);
 * List<User> all = Json.read(bytes, new TypeRef<List<User>>() {});
 * byte[] out = Json.write(u);
 * }</pre>
 */
public final class Json {
    private static final JsonMapper DEFAULT = JsonMapper.builder().build();

    private Json() {}

    public static JsonMapper mapper() {
        return DEFAULT;
    }

    public static <T> T read(byte[] json, Class<T> type) {
        return DEFAULT.read(json, type);
    }

    public static <T> T read(byte[] json, TypeRef<T> type) {
        return DEFAULT.read(json, type);
    }

    public static <T> T read(ByteBuffer json, Class<T> type) {
        return DEFAULT.read(json, type);
    }

    public static <T> T read(ByteBuffer json, TypeRef<T> type) {
        return DEFAULT.read(json, type);
    }

    public static <T> T read(String json, Class<T> type) {
        return DEFAULT.read(json, type);
    }

    public static <T> T read(String json, TypeRef<T> type) {
        return DEFAULT.read(json, type);
    }

    public static <T> T read(InputStream json, Class<T> type) {
        return DEFAULT.read(json, type);
    }

    public static <T> T read(InputStream json, TypeRef<T> type) {
        return DEFAULT.read(json, type);
    }

    public static byte[] write(Object value) {
        return DEFAULT.write(value);
    }

    public static void write(Object value, OutputStream out) {
        DEFAULT.write(value, out);
    }

    public static String writeString(Object value) {
        return DEFAULT.writeString(value);
    }
}
