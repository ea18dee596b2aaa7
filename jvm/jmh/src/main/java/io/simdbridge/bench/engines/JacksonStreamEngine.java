// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.engines;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.simdbridge.bench.data.Input;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Jackson's streaming JsonParser: a token loop, no tree. Several root values make a stream. */
public final class JacksonStreamEngine implements Engine {
    private final JsonFactory factory = new JsonFactory();

    @Override
    public String name() {
        return "jackson-stream";
    }

    @Override
    public long checksum(Input in) {
        return read(in, false);
    }

    @Override
    public long checksumStream(Input in) {
        return read(in, true);
    }

    /** One document read straight from a stream, Jackson buffering it as it goes (suite G). */
    public long checksum(InputStream in) {
        try {
            return read(factory.createParser(in), false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long read(Input in, boolean stream) {
        try {
            return read(factory.createParser(in.bytes(), 0, in.length()), stream);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long read(JsonParser parser, boolean stream) {
        try (JsonParser p = parser) {
            long h = Checksum.SEED;
            int depth = 0;
            int documents = 0;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                switch (t) {
                    case START_OBJECT -> { h = Checksum.fold(h, Checksum.OBJECT_BEGIN, 0); depth++; }
                    case END_OBJECT -> { h = Checksum.fold(h, Checksum.OBJECT_END, 0); depth--; }
                    case START_ARRAY -> { h = Checksum.fold(h, Checksum.ARRAY_BEGIN, 0); depth++; }
                    case END_ARRAY -> { h = Checksum.fold(h, Checksum.ARRAY_END, 0); depth--; }
                    case FIELD_NAME -> h = Checksum.fold(h, Checksum.KEY, Checksum.utf8Length(p.currentName()));
                    case VALUE_STRING -> h = Checksum.fold(h, Checksum.STRING,
                            Checksum.utf8Length(p.getTextCharacters(), p.getTextOffset(), p.getTextLength()));
                    case VALUE_NUMBER_INT -> h = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                            ? Checksum.foldBigInteger(h, p.getBigIntegerValue())
                            : Checksum.fold(h, Checksum.INTEGER, p.getLongValue());
                    case VALUE_NUMBER_FLOAT -> h = Checksum.foldDouble(h, p.getDoubleValue());
                    case VALUE_TRUE -> h = Checksum.fold(h, Checksum.TRUE, 0);
                    case VALUE_FALSE -> h = Checksum.fold(h, Checksum.FALSE, 0);
                    case VALUE_NULL -> h = Checksum.fold(h, Checksum.NULL, 0);
                    default -> throw new IllegalStateException("unexpected token " + t);
                }
                if (depth == 0 && t != JsonToken.FIELD_NAME) { // a root value ended
                    documents++;
                    if (stream) {
                        h = Checksum.fold(h, Checksum.DOCUMENT_END, 0);
                    } else if (documents > 1) {
                        throw new IllegalArgumentException("more than one document");
                    }
                }
            }
            if (!stream && documents == 0) {
                throw new IllegalArgumentException("no document");
            }
            return h;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
