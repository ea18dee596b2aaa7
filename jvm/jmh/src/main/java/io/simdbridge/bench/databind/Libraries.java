// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.databind;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONFactory;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.reader.ObjectReaderProvider;
import com.alibaba.fastjson2.writer.ObjectWriterProvider;
import com.dslplatform.json.DslJson;
import com.dslplatform.json.runtime.Settings;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import com.owlike.genson.Genson;
import io.avaje.jsonb.JsonType;
import io.avaje.jsonb.Jsonb;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.simdjson.SimdJsonParser;

/**
 * Every library of the data-binding comparison, reading and writing a Users model with the
 * settings its users would pick: one shared, thread-safe instance, or one per thread where the
 * library says so (dsl-json's writer, simdjson-java's parser).
 *
 * <p>Two models carry the same JSON ({@link Model}): public fields ({@link Users}) and beans
 * with private fields and accessors ({@link UsersBean}, as java-json-benchmark writes it). Writes
 * go to a byte array, or to an OutputStream: a ByteArrayOutputStream kept per thread and reset
 * before each write, as java-json-benchmark's harness writes.
 */
public final class Libraries {
    /** Reads a model from bytes. */
    public interface Reader {
        Object read(byte[] json) throws Exception;
    }

    /** Writes a model to bytes. */
    public interface Writer {
        byte[] write(Object value) throws Exception;
    }

    /** Writes a model to a stream. */
    public interface StreamWriter {
        void write(Object value, ByteArrayOutputStream out) throws Exception;
    }

    /** A Users model: its class, and the generated Users in it. */
    public enum Model {
        FIELDS(Users.class, u -> u),
        BEANS(UsersBean.class, UsersBean::of);

        public final Class<?> type;
        private final Function<Users, Object> from;

        Model(Class<?> type, Function<Users, Object> from) {
            this.type = type;
            this.from = from;
        }

        /** The generated users in this model. */
        public Object of(Users users) {
            return from.apply(users);
        }

        /** "fields" or "beans", as the benchmarks' parameters name it. */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Model byId(String id) {
            return valueOf(id.toUpperCase(java.util.Locale.ROOT));
        }
    }

    static final ObjectMapper JACKSON = new ObjectMapper();
    static final ObjectMapper JACKSON_BLACKBIRD = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .addModule(new BlackbirdModule()).build();
    /** fastjson2 FieldBased: fields read and written directly, never through accessors. */
    static final JSONReader.Feature[] FASTJSON_FIELD_READ = {JSONReader.Feature.FieldBased};
    static final JSONWriter.Feature[] FASTJSON_FIELD_WRITE = {JSONWriter.Feature.FieldBased};
    /**
     * fastjson2 as java-json-benchmark's fastjson_features sets it up: reader and writer contexts
     * from their own providers with auto-type, array mapping, JSONB and reference detection off
     * (and smart match off for reading).
     */
    static final JSONReader.Context FASTJSON_READ_CONTEXT;
    static final JSONWriter.Context FASTJSON_WRITE_CONTEXT;

    static {
        ObjectReaderProvider readers = new ObjectReaderProvider();
        readers.setDisableArrayMapping(true);
        readers.setDisableAutoType(true);
        readers.setDisableJSONB(true);
        readers.setDisableReferenceDetect(true);
        readers.setDisableSmartMatch(true);
        FASTJSON_READ_CONTEXT = JSONFactory.createReadContext(readers);
        ObjectWriterProvider writers = new ObjectWriterProvider();
        writers.setDisableAutoType(true);
        writers.setDisableArrayMapping(true);
        writers.setDisableJSONB(true);
        writers.setDisableReferenceDetect(true);
        FASTJSON_WRITE_CONTEXT = JSONFactory.createWriteContext(writers);
    }

    /** dsl-json with the converters its annotation processor compiled, and with reflection only. */
    static final DslJson<Object> DSL = new DslJson<>(Settings.withRuntime().includeServiceLoader());
    static final DslJson<Object> DSL_REFLECTION = new DslJson<>(Settings.withRuntime());
    static final ThreadLocal<com.dslplatform.json.JsonWriter> DSL_WRITER = ThreadLocal.withInitial(DSL::newWriter);
    static final ThreadLocal<com.dslplatform.json.JsonWriter> DSL_REFLECTION_WRITER =
            ThreadLocal.withInitial(DSL_REFLECTION::newWriter);
    static final Jsonb AVAJE = Jsonb.builder().build();
    static final Genson GENSON = new Genson();
    static final ThreadLocal<SimdJsonParser> SIMDJSON_JAVA = ThreadLocal.withInitial(SimdJsonParser::new);

    private Libraries() {}

    /** The public-field model's readers. */
    public static Map<String, Reader> readers() {
        return readers(Model.FIELDS);
    }

    /** The public-field model's writers. */
    public static Map<String, Writer> writers() {
        return writers(Model.FIELDS);
    }

    public static Map<String, Reader> readers(Model model) {
        Class<?> type = model.type;
        JsonType<?> avaje = AVAJE.type(type);
        Map<String, Reader> m = new LinkedHashMap<>();
        m.put("simdbridge", json -> io.simdbridge.json.Json.read(json, type));
        m.put("jackson", json -> JACKSON.readValue(json, type));
        m.put("jackson-blackbird", json -> JACKSON_BLACKBIRD.readValue(json, type));
        m.put("fastjson2", json -> JSON.parseObject(json, type));
        m.put("fastjson2-features", json -> JSON.parseObject(json, type, FASTJSON_READ_CONTEXT));
        m.put("fastjson2-fieldbased", json -> JSON.parseObject(json, type, FASTJSON_FIELD_READ));
        m.put("dsl-json", json -> DSL.deserialize(type, json, json.length));
        m.put("dsl-json-reflection", json -> DSL_REFLECTION.deserialize(type, json, json.length));
        m.put("avaje-jsonb", avaje::fromJson);
        m.put("genson", json -> GENSON.deserialize(json, type));
        if (model == Model.FIELDS) { // simdjson-java reads records; its result is turned into the field model
            m.put("simdjson-java", json -> UsersRecords.toUsers(
                    SIMDJSON_JAVA.get().parse(json, json.length, UsersRecords.UsersR.class)));
        }
        return m;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Map<String, Writer> writers(Model model) {
        JsonType avaje = AVAJE.type(model.type);
        Map<String, Writer> m = new LinkedHashMap<>();
        m.put("simdbridge", io.simdbridge.json.Json::write);
        m.put("jackson", JACKSON::writeValueAsBytes);
        m.put("jackson-blackbird", JACKSON_BLACKBIRD::writeValueAsBytes);
        m.put("fastjson2", value -> JSON.toJSONBytes(value));
        m.put("fastjson2-features", value -> {
            try (JSONWriter w = JSONWriter.ofUTF8(FASTJSON_WRITE_CONTEXT)) {
                w.writeAny(value);
                return w.getBytes();
            }
        });
        m.put("fastjson2-fieldbased", value -> JSON.toJSONBytes(value, FASTJSON_FIELD_WRITE));
        m.put("dsl-json", value -> dslWrite(DSL_WRITER.get(), DSL, value));
        m.put("dsl-json-reflection", value -> dslWrite(DSL_REFLECTION_WRITER.get(), DSL_REFLECTION, value));
        m.put("avaje-jsonb", avaje::toJsonBytes);
        m.put("genson", GENSON::serializeBytes);
        return m;
    }

    /** Writers to a stream, each as its library's documentation (or java-json-benchmark) writes to one. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Map<String, StreamWriter> streamWriters(Model model) {
        JsonType avaje = AVAJE.type(model.type);
        Map<String, StreamWriter> m = new LinkedHashMap<>();
        m.put("simdbridge", io.simdbridge.json.Json::write);
        m.put("jackson", (value, out) -> JACKSON.writeValue(out, value));
        m.put("jackson-blackbird", (value, out) -> JACKSON_BLACKBIRD.writeValue(out, value));
        m.put("fastjson2", (value, out) -> JSON.writeTo(out, value));
        m.put("fastjson2-features", (value, out) -> JSON.writeTo(out, value, FASTJSON_WRITE_CONTEXT));
        m.put("fastjson2-fieldbased", (value, out) -> JSON.writeTo(out, value, FASTJSON_FIELD_WRITE));
        m.put("dsl-json", (value, out) -> DSL.serialize(value, out));
        m.put("dsl-json-reflection", (value, out) -> DSL_REFLECTION.serialize(value, out));
        m.put("avaje-jsonb", (value, out) -> avaje.toJson(value, out));
        m.put("genson", (value, out) -> GENSON.serialize(value, out));
        return m;
    }

    private static final ThreadLocal<ByteArrayOutputStream> STREAM = ThreadLocal.withInitial(ByteArrayOutputStream::new);

    /** A stream writer as a byte-array writer: the thread's stream reset, written, its bytes taken. */
    public static Writer viaStream(StreamWriter w) {
        return value -> {
            ByteArrayOutputStream out = STREAM.get();
            out.reset();
            w.write(value, out);
            return out.toByteArray();
        };
    }

    /** The thread's stream, reset: java-json-benchmark's JsonUtils.byteArrayOutputStream(). */
    public static ByteArrayOutputStream threadStream() {
        ByteArrayOutputStream out = STREAM.get();
        out.reset();
        return out;
    }

    static byte[] dslWrite(com.dslplatform.json.JsonWriter w, DslJson<Object> dsl, Object value) {
        w.reset();
        try {
            dsl.serialize(w, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toByteArray();
    }
}
