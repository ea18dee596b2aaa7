// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * The bytes [start, start + length) of a file: the task reads the records whose lines begin in
 * them (a compressed file is one split, read whole).
 */
record FileSplit(String path, long start, long length, boolean whole) implements InputPartition {}
