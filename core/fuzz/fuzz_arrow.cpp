// SPDX-License-Identifier: Apache-2.0
// NDJSON to Arrow, with a schema the input's first byte chooses (or none: inferred): the same
// verdict, message and row count for two block sizes and two thread counts, and the same
// batches and message as the record-at-a-time reference reader; the same from a regular file
// and from a pipe (ndjson_file_to_arrow), their errors with the line and column of their
// offset; on success a row per non-blank line, every array released; an error in a record's
// syntax the scalar parser's, at the same byte. Keeping bad records (inferred or with the
// schema): never an error, a row per non-blank line; dropping them, no more; both the same
// batches for every block size, thread count and source.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "arrow/schema.h"
#include "fuzz_support.h"
#include "simdbridge/arrow.h"

using namespace simdbridge;
using simdbridge::arrow::field;
using simdbridge::arrow::kind;
using simdbridge::arrow::named;

namespace {

field with(field f, std::vector<field> children) {
  f.children = std::move(children);
  return f;
}

const std::vector<field> &schemas() {
  static const std::vector<field> all = {
      with(named("", kind::structure), {named("a", kind::int64), named("b", kind::utf8), named("c", kind::boolean)}),
      with(named("", kind::structure), {named("a", kind::float64), with(named("l", kind::list), {named("item", kind::int32)})}),
      with(named("", kind::structure), {with(named("a", kind::structure), {named("b", kind::uint8), named("c", kind::large_utf8)}),
                                        named("t", kind::timestamp), named("d", kind::date32)}),
      with(named("", kind::structure), {with(named("a", kind::large_list), {with(named("item", kind::structure), {named("x", kind::int16)})}),
                                        named("n", kind::null), named("f", kind::float32)}),
  };
  return all;
}

struct verdict {
  arrow_error error;
  int64_t rows = 0;
  std::string written; // the batches written back as NDJSON
  field schema;        // the schema read with (given or inferred)
};

/** How read() takes its bytes: in memory, or written to a regular file or a pipe and read from it. */
enum class source { bytes, file, pipe };

/**
 * A descriptor to read `data` from: a memfd holding it, or a pipe's read end with it written and
 * the write end closed (the fuzzer's inputs fit in a pipe's 64 KB); -1 where it cannot be made.
 */
int descriptor_of(const uint8_t *data, size_t size, source from) {
  int ends[2] = {-1, -1};
  if (from == source::file) {
    ends[0] = ::memfd_create("fuzz_arrow", 0);
    ends[1] = ends[0];
  } else if (::pipe(ends) != 0) {
    return -1;
  }
  if (ends[0] < 0) { return -1; }
  for (size_t at = 0; at < size;) {
    const ssize_t w = ::write(ends[1], data + at, size - at);
    if (w <= 0) {
      ::close(ends[0]);
      if (ends[1] != ends[0]) { ::close(ends[1]); }
      return -1;
    }
    at += size_t(w);
  }
  if (ends[1] != ends[0]) { ::close(ends[1]); }
  return ends[0];
}

verdict read(const uint8_t *data, size_t size, const field *schema, size_t block, unsigned threads,
             bool reference = false, source from = source::bytes, bad_records mode = bad_records::fail) {
  ArrowSchema given{};
  if (schema != nullptr) { arrow::export_schema(*schema, &given); }
  arrow_read_options options;
  options.block_size = block;
  options.threads = threads;
  options.limits.max_depth = 16;
  options.reference_reader = reference;
  options.on_bad_record = mode;
  options.corrupt_record_field = "_corrupt";
  ArrowArrayStream stream{};
  verdict v;
  if (from == source::bytes) {
    v.error = ndjson_to_arrow(input::copy_of(data, size), schema ? &given : nullptr, options, &stream);
  } else {
    const int fd = descriptor_of(data, size, from);
    fuzz::expect(fd >= 0, "arrow: no file or pipe to read from");
    v.error = ndjson_file_to_arrow(fd, schema ? &given : nullptr, options, &stream);
    ::close(fd);
  }
  if (given.release) { given.release(&given); }
  if (!v.error.ok()) { return v; }
  ArrowSchema out{};
  fuzz::expect(stream.get_schema(&stream, &out) == 0 && out.release != nullptr, "arrow: no schema");
  std::string why;
  fuzz::expect(arrow::import_schema(out, v.schema, why), "arrow: a schema it cannot read back");
  for (;;) {
    ArrowArray batch{};
    fuzz::expect(stream.get_next(&stream, &batch) == 0, "arrow: get_next failed");
    if (batch.release == nullptr) { break; }
    fuzz::expect(batch.null_count == 0 || batch.buffers[0] != nullptr, "arrow: nulls without a bitmap");
    v.rows += batch.length;
    const arrow_error w = arrow_batch_to_ndjson(out, batch, arrow_write_options{}, v.written);
    fuzz::expect(w.ok(), "arrow: a batch it read that it cannot write");
    batch.release(&batch);
  }
  out.release(&out);
  stream.release(&stream);
  return v;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) { return 0; }
  const uint8_t selector = data[0];
  data++;
  size--;
  const field *schema = selector % 5 == 4 ? nullptr : &schemas()[selector % 5];
  const verdict one = read(data, size, schema, size_t(1) << 20, 1);
  const verdict other = read(data, size, schema, 1 + selector % 97, 3);
  if (one.error.message != other.error.message || one.rows != other.rows) {
    std::fprintf(stderr, "FINDING: arrow: block size or threads change the result: '%s' (%lld rows) vs '%s' (%lld rows)\n",
                 one.error.message.c_str(), (long long)one.rows, other.error.message.c_str(), (long long)other.rows);
    std::abort();
  }
  // The block reader against the record-at-a-time reader: the same batches, the same error.
  const verdict reference = read(data, size, schema, size_t(1) << 20, 1, true);
  if (one.error.message != reference.error.message || one.written != reference.written) {
    std::fprintf(stderr, "FINDING: arrow: the block reader and the record reader differ: '%s' vs '%s'\n",
                 one.error.message.c_str(), reference.error.message.c_str());
    std::abort();
  }
  // From a file and from a pipe: the same, and an error's line and column those of its offset.
  for (const source from : {source::file, source::pipe}) {
    const verdict file = read(data, size, schema, 1 + selector % 89, 2, false, from);
    if (file.error.message != one.error.message || file.written != one.written) {
      std::fprintf(stderr, "FINDING: arrow: a %s reads otherwise than the bytes: '%s' vs '%s'\n",
                   from == source::file ? "file" : "pipe", file.error.message.c_str(), one.error.message.c_str());
      std::abort();
    }
    if (!file.error.ok()) {
      line_count count;
      count.add(data, size_t(std::min<uint64_t>(file.error.offset, size)));
      fuzz::expect(file.error.line == count.line() && file.error.column == count.column(file.error.offset),
                   "arrow: a file's error at another line and column than its offset's");
    }
  }
  // Each record, alone: the rows are the non-blank lines; a syntax error is the scalar parser's.
  parser_options limits;
  limits.max_depth = 16;
  int64_t lines = 0;
  for (size_t pos = 0; pos < size;) {
    const void *newline = std::memchr(data + pos, '\n', size - pos);
    const size_t end = newline ? size_t(static_cast<const uint8_t *>(newline) - data) : size;
    size_t first = pos, last = end;
    while (first < last && internal::is_json_whitespace(data[first])) { first++; }
    while (last > first && internal::is_json_whitespace(data[last - 1])) { last--; }
    if (first < last) {
      lines++;
      const fuzz::outcome alone = fuzz::slow_checksum(data + first, last - first, limits);
      if (one.error.ok()) { fuzz::expect(alone.ok && data[first] == '{', "arrow: accepted a record that is not an object"); }
      if (!one.error.ok() && one.error.record == uint64_t(lines) && one.error.code != error_code::type_mismatch &&
          one.error.code != error_code::unsupported_value) {
        fuzz::outcome theirs{false, 0, one.error.code, one.error.offset - first};
        if (!theirs.same_verdict(alone)) { fuzz::fail("arrow's record error against the record alone", theirs, alone); }
      }
    }
    pos = newline ? end + 1 : size;
  }
  for (const bad_records mode : {bad_records::keep, bad_records::drop}) {
    const verdict lenient = read(data, size, schema, size_t(1) << 20, 1, false, source::bytes, mode);
    fuzz::expect(lenient.error.ok(), "arrow: a read keeping or dropping bad records failed");
    fuzz::expect(mode == bad_records::keep ? lenient.rows == lines : lenient.rows <= lines,
                 "arrow: keeping bad records, not a row per non-blank line (or more rows dropping them)");
    for (const source from : {source::bytes, source::file, source::pipe}) {
      const verdict v = read(data, size, schema, 1 + selector % 89, 1 + selector % 3, false, from, mode);
      if (!v.error.ok() || v.written != lenient.written ||
          arrow::describe(v.schema) != arrow::describe(lenient.schema)) {
        std::fprintf(stderr, "FINDING: arrow: keeping or dropping bad records, block size, threads or source change "
                             "the result: '%s'\n", v.error.message.c_str());
        std::abort();
      }
    }
  }
  if (one.error.ok()) {
    fuzz::expect(one.rows == lines, "arrow: a row per non-blank line");
    // Written back and read again with the schema it was read with: the same rows, written the same.
    const verdict again = read(reinterpret_cast<const uint8_t *>(one.written.data()), one.written.size(), &one.schema,
                               size_t(1) << 20, 1);
    if (!again.error.ok() || again.rows != one.rows || again.written != one.written) {
      std::fprintf(stderr, "FINDING: arrow: written and read again, not the same: %s\n", again.error.message.c_str());
      std::abort();
    }
  }
  return 0;
}
