// SPDX-License-Identifier: Apache-2.0
package io.simdbridge;

/**
 * What a parse accepts, so that hostile input is refused cheaply: each limit passed is a
 * {@link JsonException} of its own code with the byte offset where it was passed, never a crash
 * or a generic "invalid JSON". The defaults stop no legitimate document (Jackson's
 * StreamReadConstraints are the reference: depth 1000, numbers 1000 characters, strings
 * 20,000,000 characters, documents unlimited; strings here are unlimited by default, as they
 * cannot be longer than the document, and cost only their bytes).
 *
 * <pre>{@code
 * JsonLimits strict = JsonLimits.DEFAULT.withMaxDepth(64).withMaxDocumentLength(1 << 20);
 * NativeParser parser = new NativeParser(strict);
 * JsonMapper mapper = JsonMapper.builder().limits(strict).build();
 * }</pre>
 *
 * @param maxDepth arrays and objects nest at most this deep ({@link ErrorCode#DEPTH_LIMIT}); the
 *     parser's memory follows the documents read, not this limit
 * @param maxNumberLength characters of a number that is kept as text (an integer past 64 bits, a
 *     number past the double range, which BigInteger and BigDecimal read in more than linear
 *     time); 0: no limit ({@link ErrorCode#NUMBER_TOO_LONG}). The data binding applies it as well
 *     to the digits of an integer read as a BigInteger from a number with an exponent (1e999999
 *     has a million), and to the characters of a string read as a BigInteger or BigDecimal.
 * @param maxStringLength bytes of a string or key, unescaped (UTF-8); 0: no limit
 *     ({@link ErrorCode#STRING_TOO_LONG})
 * @param maxDocumentLength bytes of a document, and of each record of a stream; 0: no limit
 *     ({@link ErrorCode#DOCUMENT_TOO_LONG})
 */
public record JsonLimits(int maxDepth, int maxNumberLength, long maxStringLength, long maxDocumentLength) {
    /** Depth 1024, numbers 1000 characters, strings and documents unlimited. */
    public static final JsonLimits DEFAULT = new JsonLimits(1024, 1000, 0, 0);

    public JsonLimits {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth " + maxDepth + " < 1");
        }
        if (maxNumberLength < 0) {
            throw new IllegalArgumentException("maxNumberLength " + maxNumberLength + " < 0 (0: no limit)");
        }
        if (maxStringLength < 0) {
            throw new IllegalArgumentException("maxStringLength " + maxStringLength + " < 0 (0: no limit)");
        }
        if (maxDocumentLength < 0) {
            throw new IllegalArgumentException("maxDocumentLength " + maxDocumentLength + " < 0 (0: no limit)");
        }
    }

    public JsonLimits withMaxDepth(int depth) {
        return new JsonLimits(depth, maxNumberLength, maxStringLength, maxDocumentLength);
    }

    public JsonLimits withMaxNumberLength(int characters) {
        return new JsonLimits(maxDepth, characters, maxStringLength, maxDocumentLength);
    }

    public JsonLimits withMaxStringLength(long bytes) {
        return new JsonLimits(maxDepth, maxNumberLength, bytes, maxDocumentLength);
    }

    public JsonLimits withMaxDocumentLength(long bytes) {
        return new JsonLimits(maxDepth, maxNumberLength, maxStringLength, bytes);
    }
}
