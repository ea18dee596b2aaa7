// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.engines;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.simdbridge.bench.data.Input;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * Jackson's tree: ObjectMapper.readTree, then a recursive walk. An ObjectNode keeps the last of
 * duplicate keys, so this engine cannot fold them all; the gate shows it where a file has any.
 * Trailing content fails (FAIL_ON_TRAILING_TOKENS): readTree ignores it by default, and every
 * engine must read the whole input.
 */
public final class JacksonTreeEngine implements Engine {
    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private final ObjectReader reader = mapper.readerFor(JsonNode.class);

    @Override
    public String name() {
        return "jackson-tree";
    }

    @Override
    public long checksum(Input in) {
        try {
            return walk(Checksum.SEED, mapper.readTree(in.bytes(), 0, in.length()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long checksumStream(Input in) {
        try (MappingIterator<JsonNode> documents = reader.readValues(in.bytes(), 0, in.length())) {
            long h = Checksum.SEED;
            while (documents.hasNextValue()) {
                h = Checksum.fold(walk(h, documents.nextValue()), Checksum.DOCUMENT_END, 0);
            }
            return h;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long walk(long h, JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                h = Checksum.fold(h, Checksum.OBJECT_BEGIN, 0);
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    h = walk(Checksum.fold(h, Checksum.KEY, Checksum.utf8Length(field.getKey())), field.getValue());
                }
                return Checksum.fold(h, Checksum.OBJECT_END, 0);
            }
            case ARRAY -> {
                h = Checksum.fold(h, Checksum.ARRAY_BEGIN, 0);
                for (JsonNode child : node) {
                    h = walk(h, child);
                }
                return Checksum.fold(h, Checksum.ARRAY_END, 0);
            }
            case STRING -> {
                return Checksum.fold(h, Checksum.STRING, Checksum.utf8Length(node.textValue()));
            }
            case NUMBER -> {
                if (node.isBigInteger()) {
                    return Checksum.foldBigInteger(h, node.bigIntegerValue());
                }
                return node.isIntegralNumber() ? Checksum.fold(h, Checksum.INTEGER, node.longValue())
                        : Checksum.foldDouble(h, node.doubleValue());
            }
            case BOOLEAN -> {
                return Checksum.fold(h, node.booleanValue() ? Checksum.TRUE : Checksum.FALSE, 0);
            }
            case NULL -> {
                return Checksum.fold(h, Checksum.NULL, 0);
            }
            default -> throw new IllegalStateException("unexpected node " + node.getNodeType());
        }
    }
}
