// SPDX-License-Identifier: Apache-2.0
// The C API: each function a one-line wrapper of the C++ call it names (after entering(), below).
#include "simdbridge/simdbridge_c.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "simdbridge/arrow.h"
#include "simdbridge/msgpack.h"
#include "simdbridge/parser.h"
#include "simdbridge/writer.h"

struct simdbridge_parser {
  simdbridge::parser cpp;
};

struct simdbridge_binding_plan {
  std::unique_ptr<simdbridge::binding_plan> cpp;
};

namespace {

simdbridge::input to_input(const uint8_t *data, size_t length, size_t capacity) {
  return simdbridge::input::padded(data, length, capacity);
}

simdbridge_result to_c(const simdbridge::result<uint64_t> &r) {
  if (r.ok()) { return {SIMDBRIDGE_SUCCESS, r.value()}; }
  return {int32_t(r.error().code), r.error().offset};
}

simdbridge_result null_parser() { return {SIMDBRIDGE_INVALID_ARGUMENT, 0}; }

/** Copies `text` into `out`, cut to `capacity` - 1 bytes and NUL-terminated. */
void copy_text(const std::string &text, char *out, size_t capacity) {
  const size_t n = std::min(text.size(), capacity - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

/** An arrow_error as the C API's: the code returned, the rest into `out` (where given). */
int32_t to_c(const simdbridge::arrow_error &e, simdbridge_arrow_error *out) {
  if (!e.ok() && out != nullptr) {
    out->offset = e.offset;
    out->record = e.record;
    copy_text(e.path, out->path, sizeof out->path);
    copy_text(e.message.empty() ? std::string(simdbridge::error_message(e.code)) : e.message, out->message,
              sizeof out->message);
  }
  return int32_t(e.code);
}

simdbridge::arrow_read_options read_options(const simdbridge_parser *limits, uint64_t block_size, uint32_t threads,
                                            uint32_t flags, const char *corrupt_record_field = nullptr);

simdbridge::arrow_write_options write_options(uint32_t write_nulls, uint32_t threads) {
  simdbridge::arrow_write_options options;
  options.write_nulls = write_nulls != 0;
  options.threads = threads;
  return options;
}

simdbridge::ndjson_sink c_sink(simdbridge_ndjson_sink sink, void *context) {
  return [sink, context](const char *data, size_t size) {
    return sink(context, reinterpret_cast<const uint8_t *>(data), size) != 0;
  };
}

/**
 * Called first by every entry point that parses: clears the upper halves of the vector registers
 * where the CPU has AVX. A JVM's compiled code uses AVX and AVX-512 (to zero new objects, to copy
 * arrays) and calls in with those halves dirty; this library's SSE code (the legacy encoding)
 * then pays a state transition, which the compilers' own AVX code avoids with the same
 * instruction at its boundaries; the transition costs more than a small document's parse.
 * Out of line, so that the caller's own SSE code cannot be scheduled above it.
 */
#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((noinline)) void entering() noexcept {
  if (__builtin_cpu_supports("avx")) { asm volatile("vzeroupper"); }
}
#else
void entering() noexcept {}
#endif

simdbridge::arrow_read_options read_options(const simdbridge_parser *limits, uint64_t block_size, uint32_t threads,
                                            uint32_t flags, const char *corrupt_record_field) {
  simdbridge::arrow_read_options options;
  if (block_size != 0) { options.block_size = size_t(block_size); }
  options.threads = threads;
  options.error_on_unknown_fields = (flags & SIMDBRIDGE_ARROW_ERROR_ON_UNKNOWN_FIELDS) != 0;
  options.validate_skipped = (flags & SIMDBRIDGE_ARROW_SKIP_UNVALIDATED) == 0;
  options.any_value_as_string = (flags & SIMDBRIDGE_ARROW_ANY_VALUE_AS_STRING) != 0;
  options.spark_temporals = (flags & SIMDBRIDGE_ARROW_SPARK_TEMPORALS) != 0;
  if ((flags & SIMDBRIDGE_ARROW_KEEP_BAD_RECORDS) != 0) {
    options.on_bad_record = simdbridge::bad_records::keep;
  } else if ((flags & SIMDBRIDGE_ARROW_DROP_BAD_RECORDS) != 0) {
    options.on_bad_record = simdbridge::bad_records::drop;
  }
  if (corrupt_record_field != nullptr) { options.corrupt_record_field = corrupt_record_field; }
  if (limits != nullptr) { options.limits = limits->cpp.options(); }
  return options;
}

} // namespace

extern "C" {

simdbridge_parser *simdbridge_parser_new(uint32_t max_depth) {
  simdbridge::parser_options options;
  if (max_depth != 0) { options.max_depth = max_depth; }
  return new (std::nothrow) simdbridge_parser{simdbridge::parser(options)};
}

void simdbridge_parser_free(simdbridge_parser *parser) { delete parser; }

int32_t simdbridge_ndjson_to_arrow(const simdbridge_parser *limits, const uint8_t *data, size_t length,
                                   size_t capacity, const struct ArrowSchema *schema, uint64_t block_size,
                                   uint32_t threads, uint32_t flags, const char *corrupt_record_field,
                                   struct ArrowArrayStream *out, simdbridge_arrow_error *error) {
  entering();
  return to_c(simdbridge::ndjson_to_arrow(to_input(data, length, capacity), schema,
                                          read_options(limits, block_size, threads, flags, corrupt_record_field), out),
              error);
}

int32_t simdbridge_ndjson_file_to_arrow(const simdbridge_parser *limits, const char *path,
                                        const struct ArrowSchema *schema, uint64_t block_size, uint32_t threads,
                                        uint32_t flags, const char *corrupt_record_field,
                                        struct ArrowArrayStream *out, simdbridge_arrow_error *error) {
  entering();
  if (path == nullptr) { return SIMDBRIDGE_INVALID_ARGUMENT; }
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    simdbridge::arrow_error e;
    e.code = simdbridge::error_code::read_failed;
    e.detail = e.message = std::string("cannot open ") + path + ": " + std::strerror(errno);
    return to_c(e, error);
  }
  const int32_t code = to_c(simdbridge::ndjson_file_to_arrow(fd, schema, read_options(limits, block_size, threads, flags, corrupt_record_field),
                                                                out),
                            error);
  ::close(fd);
  return code;
}

int32_t simdbridge_arrow_infer_schema(const simdbridge_parser *limits, const uint8_t *data, size_t length,
                                      size_t capacity, uint64_t block_size, uint32_t threads,
                                      struct ArrowSchema *out, simdbridge_arrow_error *error) {
  entering();
  return to_c(simdbridge::infer_arrow_schema(to_input(data, length, capacity),
                                             read_options(limits, block_size, threads, 0), out),
              error);
}

int32_t simdbridge_arrow_to_ndjson(struct ArrowArrayStream *stream, uint32_t write_nulls, uint32_t threads,
                                   simdbridge_ndjson_sink sink, void *context, simdbridge_arrow_error *error) {
  entering();
  if (sink == nullptr) { return SIMDBRIDGE_INVALID_ARGUMENT; }
  return to_c(simdbridge::arrow_to_ndjson(stream, write_options(write_nulls, threads), c_sink(sink, context)), error);
}

int32_t simdbridge_arrow_batch_to_ndjson(const struct ArrowSchema *schema, const struct ArrowArray *batch,
                                         uint32_t write_nulls, uint32_t threads, simdbridge_ndjson_sink sink,
                                         void *context, simdbridge_arrow_error *error) {
  entering();
  if (sink == nullptr || schema == nullptr || batch == nullptr) { return SIMDBRIDGE_INVALID_ARGUMENT; }
  return to_c(simdbridge::arrow_batch_to_ndjson(*schema, *batch, write_options(write_nulls, threads), c_sink(sink, context)),
              error);
}

int32_t simdbridge_parser_set_limits(simdbridge_parser *parser, uint32_t max_depth, uint32_t max_number_length,
                                     uint64_t max_string_length, uint64_t max_document_length) {
  if (parser == nullptr) { return SIMDBRIDGE_INVALID_ARGUMENT; }
  simdbridge::parser_options options = parser->cpp.options();
  options.max_depth = max_depth;
  options.max_number_length = max_number_length;
  options.max_string_length = max_string_length;
  options.max_document_length = max_document_length;
  return int32_t(parser->cpp.set_options(options).code);
}

void simdbridge_parser_trim(simdbridge_parser *parser) {
  if (parser != nullptr) { parser->cpp.trim(); }
}

simdbridge_result simdbridge_checksum(simdbridge_parser *parser, const uint8_t *data,
                                      size_t length, size_t capacity) {
  entering();
  if (parser == nullptr) { return null_parser(); }
  return to_c(parser->cpp.checksum(to_input(data, length, capacity)));
}

simdbridge_result simdbridge_checksum_stream(simdbridge_parser *parser, const uint8_t *data,
                                             size_t length, size_t capacity) {
  entering();
  if (parser == nullptr) { return null_parser(); }
  return to_c(parser->cpp.checksum_stream(to_input(data, length, capacity)));
}

simdbridge_result simdbridge_validate(simdbridge_parser *parser, const uint8_t *data,
                                      size_t length, size_t capacity) {
  entering();
  if (parser == nullptr) { return null_parser(); }
  const simdbridge::error e = parser->cpp.validate(to_input(data, length, capacity));
  return {int32_t(e.code), e.offset};
}

simdbridge_result simdbridge_validate_stream(simdbridge_parser *parser, const uint8_t *data,
                                             size_t length, size_t capacity) {
  entering();
  if (parser == nullptr) { return null_parser(); }
  return to_c(parser->cpp.validate_stream(to_input(data, length, capacity)));
}

simdbridge_result simdbridge_extract(simdbridge_parser *parser, const uint8_t *data,
                                     size_t length, size_t capacity, simdbridge_column *columns,
                                     size_t column_count, uint64_t max_rows,
                                     uint64_t *status_out) {
  entering();
  if (parser == nullptr || status_out == nullptr) { return null_parser(); }
  simdbridge::extract_status status;
  const simdbridge::error e = parser->cpp.extract(to_input(data, length, capacity), columns,
                                                  column_count, max_rows, status);
  status_out[SIMDBRIDGE_EXTRACT_STATUS_CONSUMED] = status.consumed;
  status_out[SIMDBRIDGE_EXTRACT_STATUS_COLUMN] = uint64_t(int64_t(status.error_column));
  if (!e.ok()) { return {int32_t(e.code), e.offset}; }
  return {SIMDBRIDGE_SUCCESS, status.rows};
}

simdbridge_result simdbridge_document_parse(simdbridge_parser *parser, const uint8_t *data,
                                            size_t length, size_t capacity) {
  entering();
  if (parser == nullptr) { return null_parser(); }
  const simdbridge::error e = parser->cpp.document_parse(to_input(data, length, capacity));
  return {int32_t(e.code), e.offset};
}

int32_t simdbridge_binding_tape(simdbridge_parser *parser, const uint8_t *data, size_t length, size_t capacity,
                        uint64_t *words, size_t word_capacity, uint8_t *strings, size_t string_capacity,
                        uint32_t options, uint64_t *status_out) {
  entering();
  if (parser == nullptr || status_out == nullptr || (words == nullptr && word_capacity != 0) ||
      (strings == nullptr && string_capacity != 0)) {
    return SIMDBRIDGE_INVALID_ARGUMENT;
  }
  simdbridge::binding_tape_buffer out{words, word_capacity, strings, string_capacity};
  out.strings_in_input = (options & SIMDBRIDGE_BINDING_TAPE_STRINGS_IN_INPUT) != 0;
  const simdbridge::error e = parser->cpp.to_binding_tape(to_input(data, length, capacity), out);
  status_out[SIMDBRIDGE_BINDING_TAPE_STATUS_WORDS] = out.words_used;
  status_out[SIMDBRIDGE_BINDING_TAPE_STATUS_STRINGS] = out.strings_used;
  status_out[SIMDBRIDGE_BINDING_TAPE_STATUS_OFFSET] = e.offset;
  return int32_t(e.code);
}

simdbridge_binding_plan *simdbridge_binding_plan_new(const uint8_t *spec, size_t length) {
  entering();
  simdbridge::error e;
  std::unique_ptr<simdbridge::binding_plan> plan = simdbridge::binding_plan::parse(spec, length, e);
  if (plan == nullptr) { return nullptr; }
  return new (std::nothrow) simdbridge_binding_plan{std::move(plan)};
}

void simdbridge_binding_plan_free(simdbridge_binding_plan *plan) { delete plan; }

int32_t simdbridge_binding_tape_planned(simdbridge_parser *parser, const simdbridge_binding_plan *plan,
                                        const uint8_t *data, size_t length, size_t capacity, uint64_t *words,
                                        size_t word_capacity, uint8_t *strings, size_t string_capacity,
                                        uint32_t options, uint64_t *status_out) {
  entering();
  if (parser == nullptr || plan == nullptr || status_out == nullptr || (words == nullptr && word_capacity != 0) ||
      (strings == nullptr && string_capacity != 0)) {
    return SIMDBRIDGE_INVALID_ARGUMENT;
  }
  simdbridge::binding_tape_buffer out{words, word_capacity, strings, string_capacity};
  out.strings_in_input = (options & SIMDBRIDGE_BINDING_TAPE_STRINGS_IN_INPUT) != 0;
  const simdbridge::error e = parser->cpp.to_binding_tape(to_input(data, length, capacity), *plan->cpp, out);
  status_out[SIMDBRIDGE_BINDING_TAPE_STATUS_WORDS] = out.words_used;
  status_out[SIMDBRIDGE_BINDING_TAPE_STATUS_STRINGS] = out.strings_used;
  status_out[SIMDBRIDGE_BINDING_TAPE_STATUS_OFFSET] = e.offset;
  status_out[SIMDBRIDGE_BINDING_TAPE_STATUS_PLANNED] = out.planned ? 1 : 0;
  return int32_t(e.code);
}

simdbridge_result simdbridge_document_field(simdbridge_parser *parser, const char *pointer,
                                            size_t pointer_length, int32_t type, uint8_t *out,
                                            size_t out_capacity) {
  entering();
  if (parser == nullptr) { return null_parser(); }
  bool present = false;
  size_t size = 0;
  const simdbridge::error e = parser->cpp.document_field(
      std::string_view(pointer, pointer_length), simdbridge::column_type(type), out, out_capacity,
      present, size);
  if (!e.ok()) { return {int32_t(e.code), e.offset}; }
  return {SIMDBRIDGE_SUCCESS, present ? 1 + size : 0};
}

const char *simdbridge_error_message(int32_t error) {
  return simdbridge::error_message(simdbridge::error_code(error));
}

const char *simdbridge_error_name(int32_t error) {
  return simdbridge::error_name(simdbridge::error_code(error));
}

const char *simdbridge_version(void) { return simdbridge::version(); }

const char *simdbridge_simdjson_version(void) { return simdbridge::simdjson_version(); }

const char *simdbridge_simd_implementation(void) { return simdbridge::simd_implementation(); }

size_t simdbridge_write_json_string(const uint16_t *text, size_t length, uint8_t *out) {
  return simdbridge::write_json_string(reinterpret_cast<const char16_t *>(text), length, out);
}

void simdbridge_noop(void) {}

} // extern "C"

namespace {

/**
 * Where a conversion writes its result: straight into the caller's `out` where it fits (no copy
 * kept in between); where it does not, nothing is written and the size needed is told.
 */
struct into_out {
  uint8_t *out;
  size_t capacity;
  size_t needed = 0; // the result's size, once the conversion asks for room (0 until then)

  simdbridge::msgpack_output output() {
    return [this](size_t size) -> uint8_t * {
      static uint8_t nothing;
      needed = size;
      if (size > capacity) { return nullptr; }
      return size == 0 ? &nothing : out;
    };
  }

  int32_t status(const simdbridge::msgpack_error &e, uint64_t *status_out) const {
    status_out[SIMDBRIDGE_MSGPACK_STATUS_SIZE] = 0;
    status_out[SIMDBRIDGE_MSGPACK_STATUS_OFFSET] = e.e.offset;
    status_out[SIMDBRIDGE_MSGPACK_STATUS_DOCUMENT] = e.document;
    if (needed > capacity) {
      status_out[SIMDBRIDGE_MSGPACK_STATUS_SIZE] = needed;
      return SIMDBRIDGE_OUTPUT_TOO_SMALL;
    }
    if (!e.ok()) { return int32_t(e.e.code); }
    status_out[SIMDBRIDGE_MSGPACK_STATUS_SIZE] = needed;
    return SIMDBRIDGE_SUCCESS;
  }
};

simdbridge::msgpack_options msgpack_options_of(uint32_t flags, uint64_t block_size, uint32_t threads) {
  simdbridge::msgpack_options o;
  o.ndjson = (flags & SIMDBRIDGE_MSGPACK_NDJSON) != 0;
  o.stream = (flags & SIMDBRIDGE_MSGPACK_STREAM) != 0;
  o.validate_utf8 = (flags & SIMDBRIDGE_MSGPACK_NO_UTF8_CHECK) == 0;
  o.binary_as_base64 = (flags & SIMDBRIDGE_MSGPACK_BINARY_AS_ERROR) == 0;
  o.ext_as_null = (flags & SIMDBRIDGE_MSGPACK_EXT_AS_NULL) != 0;
  if (block_size != 0) { o.block_size = size_t(block_size); }
  o.threads = std::max(1u, threads);
  return o;
}

} // namespace

int32_t simdbridge_json_to_msgpack(simdbridge_parser *parser, const uint8_t *data, size_t length, size_t capacity,
                                   uint32_t flags, uint64_t block_size, uint32_t threads, uint8_t *out,
                                   size_t out_capacity, uint64_t *status_out) {
  entering();
  if (parser == nullptr || status_out == nullptr || (out == nullptr && out_capacity != 0) ||
      (data == nullptr && length != 0)) {
    return SIMDBRIDGE_INVALID_ARGUMENT;
  }
  into_out to{out, out_capacity};
  const simdbridge::msgpack_error e = simdbridge::json_to_msgpack(
      parser->cpp, to_input(data, length, capacity), msgpack_options_of(flags, block_size, threads), to.output());
  return to.status(e, status_out);
}

int32_t simdbridge_msgpack_to_json(simdbridge_parser *parser, const uint8_t *data, size_t length,
                                   uint32_t flags, uint64_t block_size, uint32_t threads, uint8_t *out,
                                   size_t out_capacity, uint64_t *status_out) {
  entering();
  if (status_out == nullptr || (out == nullptr && out_capacity != 0) || (data == nullptr && length != 0)) {
    return SIMDBRIDGE_INVALID_ARGUMENT;
  }
  simdbridge::msgpack_options o = msgpack_options_of(flags, block_size, threads);
  into_out to{out, out_capacity};
  const simdbridge::input in = simdbridge::input::copy_of(data, length);
  if (parser == nullptr) { return to.status(simdbridge::msgpack_to_json(in, o, to.output()), status_out); }
  const simdbridge::parser_options &limits = parser->cpp.options();
  o.max_depth = limits.max_depth == 0 ? SIMDBRIDGE_DEFAULT_MAX_DEPTH : limits.max_depth;
  o.max_value_length = limits.max_document_length;
  return to.status(simdbridge::msgpack_to_json(parser->cpp, in, o, to.output()), status_out);
}
