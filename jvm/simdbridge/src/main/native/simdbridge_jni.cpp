// SPDX-License-Identifier: Apache-2.0
// JNI forwarders onto the C API (simdbridge_c.h), for io.simdbridge.JniBridge. Each one casts,
// calls, and returns: Java has already checked every buffer, offset and length, and turns the
// error code into an exception (JsonException). The result's value (a checksum, a count, or an
// error's byte offset) goes to a per-parser native slot that Java reads.
#include <jni.h>

#include <cstdint>
#include <cstring>

#include "simdbridge/simdbridge_c.h"

namespace {

/** What to do with the bytes: the values of JniBridge's KIND_* constants. */
enum kind : jint { checksum = 0, checksum_stream = 1, validate = 2, validate_stream = 3 };

inline simdbridge_result read(jlong parser, jint what, const uint8_t *data, jint length, jint capacity) {
  auto *p = reinterpret_cast<simdbridge_parser *>(parser);
  const size_t n = size_t(length), cap = size_t(capacity);
  switch (what) {
  case checksum: return simdbridge_checksum(p, data, n, cap);
  case checksum_stream: return simdbridge_checksum_stream(p, data, n, cap);
  case validate: return simdbridge_validate(p, data, n, cap);
  default: return simdbridge_validate_stream(p, data, n, cap);
  }
}

inline jint finish(simdbridge_result r, jlong result_address) {
  std::memcpy(reinterpret_cast<void *>(result_address), &r.value, sizeof r.value);
  return r.error;
}

} // namespace

extern "C" {

JNIEXPORT jlong JNICALL Java_io_simdbridge_JniBridge_parserNew0(JNIEnv *, jclass, jint max_depth) {
  return reinterpret_cast<jlong>(simdbridge_parser_new(uint32_t(max_depth)));
}

JNIEXPORT void JNICALL Java_io_simdbridge_JniBridge_parserFree0(JNIEnv *, jclass, jlong parser) {
  simdbridge_parser_free(reinterpret_cast<simdbridge_parser *>(parser));
}

/** Zero copy: the direct buffer's memory, read in place. */
JNIEXPORT jint JNICALL Java_io_simdbridge_JniBridge_readDirect0(JNIEnv *env, jclass, jlong parser,
                                                                jint what, jobject buffer,
                                                                jint position, jint length,
                                                                jint capacity, jlong result) {
  const auto *base = static_cast<const uint8_t *>(env->GetDirectBufferAddress(buffer));
  return finish(read(parser, what, base + position, length, capacity), result);
}

/** The copying bridge: GetByteArrayElements (HotSpot copies the array out and back). */
JNIEXPORT jint JNICALL Java_io_simdbridge_JniBridge_readArrayCopy0(JNIEnv *env, jclass, jlong parser,
                                                                   jint what, jbyteArray array,
                                                                   jint offset, jint length,
                                                                   jint capacity, jlong result) {
  jbyte *base = env->GetByteArrayElements(array, nullptr);
  if (base == nullptr) { return finish({SIMDBRIDGE_OUT_OF_MEMORY, 0}, result); }
  const simdbridge_result r =
      read(parser, what, reinterpret_cast<const uint8_t *>(base) + offset, length, capacity);
  env->ReleaseByteArrayElements(array, base, JNI_ABORT); // nothing to copy back
  return finish(r, result);
}

/** The array in place: GetPrimitiveArrayCritical (the GC may pin it, or copy it). */
JNIEXPORT jint JNICALL Java_io_simdbridge_JniBridge_readArrayCritical0(
    JNIEnv *env, jclass, jlong parser, jint what, jbyteArray array, jint offset, jint length,
    jint capacity, jlong result) {
  void *base = env->GetPrimitiveArrayCritical(array, nullptr);
  if (base == nullptr) { return finish({SIMDBRIDGE_OUT_OF_MEMORY, 0}, result); }
  const simdbridge_result r =
      read(parser, what, static_cast<const uint8_t *>(base) + offset, length, capacity);
  env->ReleasePrimitiveArrayCritical(array, base, JNI_ABORT);
  return finish(r, result);
}

/** Batch extraction: the columns' descriptors are simdbridge_column structs at columns. */
JNIEXPORT jint JNICALL Java_io_simdbridge_JniBridge_extractDirect0(
    JNIEnv *env, jclass, jlong parser, jobject buffer, jint position, jint length, jint capacity,
    jlong columns, jint column_count, jlong max_rows, jlong status, jlong result) {
  const auto *base = static_cast<const uint8_t *>(env->GetDirectBufferAddress(buffer));
  return finish(simdbridge_extract(reinterpret_cast<simdbridge_parser *>(parser), base + position,
                                   size_t(length), size_t(capacity),
                                   reinterpret_cast<simdbridge_column *>(columns),
                                   size_t(column_count), uint64_t(max_rows),
                                   reinterpret_cast<uint64_t *>(status)),
                result);
}

/** Parses one document and keeps it in the parser, for documentField0. */
JNIEXPORT jint JNICALL Java_io_simdbridge_JniBridge_documentParseDirect0(JNIEnv *env, jclass, jlong parser,
                                                                         jobject buffer, jint position,
                                                                         jint length, jint capacity,
                                                                         jlong result) {
  const auto *base = static_cast<const uint8_t *>(env->GetDirectBufferAddress(buffer));
  return finish(simdbridge_document_parse(reinterpret_cast<simdbridge_parser *>(parser), base + position,
                                          size_t(length), size_t(capacity)),
                result);
}

/** One field of the kept document, by JSON Pointer (its UTF-8 at pointer), into out. */
JNIEXPORT jint JNICALL Java_io_simdbridge_JniBridge_documentField0(JNIEnv *, jclass, jlong parser,
                                                                   jlong pointer, jlong pointer_length,
                                                                   jint type, jlong out,
                                                                   jlong out_capacity, jlong result) {
  return finish(simdbridge_document_field(reinterpret_cast<simdbridge_parser *>(parser),
                                          reinterpret_cast<const char *>(pointer), size_t(pointer_length),
                                          type, reinterpret_cast<uint8_t *>(out), size_t(out_capacity)),
                result);
}

/** Nothing: prices an empty JNI crossing. */
JNIEXPORT void JNICALL Java_io_simdbridge_JniBridge_noop0(JNIEnv *, jclass) { simdbridge_noop(); }

JNIEXPORT jstring JNICALL Java_io_simdbridge_JniBridge_errorMessage0(JNIEnv *env, jclass, jint error) {
  return env->NewStringUTF(simdbridge_error_message(error));
}

JNIEXPORT jstring JNICALL Java_io_simdbridge_JniBridge_errorName0(JNIEnv *env, jclass, jint error) {
  return env->NewStringUTF(simdbridge_error_name(error));
}

JNIEXPORT jstring JNICALL Java_io_simdbridge_JniBridge_version0(JNIEnv *env, jclass, jint which) {
  return env->NewStringUTF(which == 0   ? simdbridge_version()
                           : which == 1 ? simdbridge_simdjson_version()
                                        : simdbridge_simd_implementation());
}

} // extern "C"
