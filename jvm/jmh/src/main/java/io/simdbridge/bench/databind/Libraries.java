// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.dslplatform.json.DslJson;
import com.dslplatform.json.runtime.Settings;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import com.owlike.genson.Genson;
import io.avaje.jsonb.JsonType;
import io.avaje.jsonb.Jsonb;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.simdjson.SimdJsonParser;

/**
 * Every library of the data-binding comparison, reading and writing the Users model with the
 * settings its users would pick: one shared, thread-safe instance, or one per thread where the
 * library says so (dsl-json's writer, simdjson-java's parser).
 */
public final class Libraries {
    /** Reads Users from bytes. */
    public interface Reader {
        Users read(byte[] json) throws Exception;
    }

    /** Writes Users to bytes. */
    public interface Writer {
        byte[] write(Users users) throws Exception;
    }

    static final ObjectMapper JACKSON = new ObjectMapper();
    static final ObjectMapper JACKSON_BLACKBIRD = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .addModule(new BlackbirdModule()).build();
    /**
     * fastjson2 with features: FieldBased reading and writing (fields directly, no accessors). The
     * exact feature set of java-json-benchmark's fastjson_features could not be confirmed from its
     * sources here; FieldBased is the one its author documents for speed.
     */
    static final JSONReader.Feature[] FASTJSON_READ = {JSONReader.Feature.FieldBased};
    static final JSONWriter.Feature[] FASTJSON_WRITE = {JSONWriter.Feature.FieldBased};
    static final DslJson<Object> DSL = new DslJson<>(Settings.withRuntime().includeServiceLoader());
    static final ThreadLocal<com.dslplatform.json.JsonWriter> DSL_WRITER = ThreadLocal.withInitial(DSL::newWriter);
    static final JsonType<Users> AVAJE = Jsonb.builder().build().type(Users.class);
    static final Genson GENSON = new Genson();
    static final ThreadLocal<SimdJsonParser> SIMDJSON_JAVA = ThreadLocal.withInitial(SimdJsonParser::new);

    private Libraries() {}

    public static Map<String, Reader> readers() {
        Map<String, Reader> m = new LinkedHashMap<>();
        m.put("simdbridge", json -> io.simdbridge.json.Json.read(json, Users.class));
        m.put("jackson", json -> JACKSON.readValue(json, Users.class));
        m.put("jackson-blackbird", json -> JACKSON_BLACKBIRD.readValue(json, Users.class));
        m.put("fastjson2", json -> JSON.parseObject(json, Users.class));
        m.put("fastjson2-features", json -> JSON.parseObject(json, Users.class, FASTJSON_READ));
        m.put("dsl-json", json -> DSL.deserialize(Users.class, json, json.length));
        m.put("avaje-jsonb", AVAJE::fromJson);
        m.put("genson", json -> GENSON.deserialize(json, Users.class));
        m.put("simdjson-java", json -> UsersRecords.toUsers(
                SIMDJSON_JAVA.get().parse(json, json.length, UsersRecords.UsersR.class)));
        return m;
    }

    public static Map<String, Writer> writers() {
        Map<String, Writer> m = new LinkedHashMap<>();
        m.put("simdbridge", io.simdbridge.json.Json::write);
        m.put("jackson", JACKSON::writeValueAsBytes);
        m.put("jackson-blackbird", JACKSON_BLACKBIRD::writeValueAsBytes);
        m.put("fastjson2", users -> JSON.toJSONBytes(users));
        m.put("fastjson2-features", users -> JSON.toJSONBytes(users, FASTJSON_WRITE));
        m.put("dsl-json", Libraries::dslWrite);
        m.put("avaje-jsonb", AVAJE::toJsonBytes);
        m.put("genson", GENSON::serializeBytes);
        return m;
    }

    static byte[] dslWrite(Users users) {
        com.dslplatform.json.JsonWriter w = DSL_WRITER.get();
        w.reset();
        try {
            DSL.serialize(w, users);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toByteArray();
    }
}
