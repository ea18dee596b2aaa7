// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.engines;

import io.simdbridge.bench.data.Input;

/**
 * A JSON reader computing the checksum of docs/checksum.md, so that every engine
 * visits every value and their answers can be compared before anything is timed. Each engine
 * reads the form of the input it prefers (a heap array, a padded array, a direct buffer); the
 * cost of getting bytes into that form is measured apart (suite G).
 */
public interface Engine {
    /** The name in results: jackson-tree, simdjson-jni-direct, ... */
    String name();

    /** The checksum of one document. Invalid input throws. */
    long checksum(Input input);

    /** The checksum of a stream: documents separated by white space, tag 12 after each. */
    long checksumStream(Input input);
}
