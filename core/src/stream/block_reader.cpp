// SPDX-License-Identifier: Apache-2.0
// block_reader (stream.h): a stream in blocks cut at document boundaries. With one thread each
// block is read by a stream_reader one document at a time, as next() reaches it; with more,
// worker threads parse whole blocks ahead while the caller's thread takes their documents in
// order. The caller's thread alone
// reads the source and cuts the blocks, so a source need not be thread-safe. Blocks parsed
// ahead keep their documents' tapes one after another in one buffer.
#include "simdbridge/stream.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include <simdjson.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "document_state.h"
#include "newlines.h"
#include "open_record.h"
#include "scalar_parser.h"

namespace simdbridge {

namespace {

constexpr uint8_t record_separator = 0x1E;

/** A stream already in memory, read in blocks. */
class memory_source final : public stream_source {
public:
  explicit memory_source(input in) : in_(in) {}
  result<size_t> read(uint8_t *into, size_t capacity) noexcept override {
    const size_t n = std::min(capacity, in_.size - at_);
    if (n > 0) { std::memcpy(into, in_.data + at_, n); }
    at_ += n;
    return n;
  }

private:
  input in_;
  size_t at_ = 0;
};

/** Where one document of a block lies: on the block's tapes, and in its bytes. */
struct span {
  size_t value_index;
  size_t begin, end;
  bool on_tape;
  size_t words_at, words;     // its tape in block::words
  size_t strings_at, strings; // its strings in block::strings
};

} // namespace

void line_count::add(const uint8_t *bytes, size_t n) noexcept {
  newlines += internal::count_newlines(bytes, n);
  for (size_t i = n; i > 0; i--) {
    if (bytes[i - 1] == '\n') {
      line_start = at + i;
      break;
    }
  }
  at += n;
}

namespace {

/** One block of the stream: its bytes (padded), where they sit, and what parsing them found. */
struct block {
  std::vector<uint8_t> bytes; // at least size + padding
  size_t size = 0;
  uint64_t base = 0;          // the stream offset of bytes[0]
  bool continues = false;     // bytes[0] is past the stream's start (and json_seq's first RS)
  bool final = false;         // the stream's last: a document cut short at its end is an error
  bool overlong = false;      // cut with no boundary, past the length limit: possibly inside a document
  enum class stage { cut, parsing, parsed };
  std::atomic<stage> at{stage::cut}; // set under the reader's mutex; read by ready() without it
  // The tapes of its documents, one after another: each copied from the parser's as parsed, the
  // words and strings it used only (a tape of its own per document costs more: scattered, cold,
  // 10 times the document's size in capacity).
  std::vector<uint64_t> words;
  std::vector<uint8_t> strings;
  std::vector<span> spans;
  size_t documents = 0;
  error failure;              // what stopped the block after `documents` (offset in the block)
  bool incomplete = false;    // its last document runs past its end: read again from `resume`
  size_t resume = 0;
  line_count before;          // count_lines: the stream's lines before bytes[0] (before.at == base)

  input in() const { return input::padded(bytes.data(), size, bytes.size()); }
  tape_view tape(const span &s) const { return {words.data() + s.words_at, strings.data() + s.strings_at}; }
};

/** Words and string bytes a document's tape uses (simdjson's layout: see tape.h). */
void tape_extent(const tape_view &t, size_t &words, size_t &strings) {
  constexpr uint64_t payload = (uint64_t(1) << 56) - 1;
  words = size_t(t.words[0] & payload); // the first root word holds the index past the last one
  strings = 0;
  for (size_t i = 1; i < words;) {
    const uint8_t type = uint8_t(t.words[i] >> 56);
    if (type == '"') {
      const size_t at = size_t(t.words[i] & payload);
      uint32_t length;
      std::memcpy(&length, t.strings + at, sizeof length);
      strings = at + sizeof length + length + 1;
      i++;
    } else if (type == 'l' || type == 'u' || type == 'd') {
      i += 2;
    } else {
      i++;
    }
  }
}

bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/**
 * In the whitespace format (the only one where a document may span a cut), an input that ends
 * too soon at the end of a block that is not the stream's last says the block ended inside a
 * document: that document is read again with the next block.
 */
bool cut_short(const block &b, const error &e, stream_format format) {
  return format == stream_format::whitespace && !b.final && e.code == error_code::unexpected_end && e.offset == b.size;
}

/**
 * A block of the whitespace format cut with no line end (`overlong`: documents may share a
 * line) may end inside a scalar (`12|34`, `tr|ue`) that reads as a whole document: one that
 * ends right at its end on anything but a bracket or a quote is read again with the next block.
 */
bool may_go_on(const block &b, size_t end) {
  if (!b.overlong || b.final || end != b.size || end == 0) { return false; }
  const uint8_t last = b.bytes[end - 1];
  return last != '}' && last != ']' && last != '"';
}

/** The first byte past white space (and json_seq's RS) from `from`: where a document starts. */
size_t document_start(const block &b, size_t from) {
  while (from < b.size && (is_space(b.bytes[from]) || b.bytes[from] == record_separator)) { from++; }
  return from;
}

/**
 * The document cut short after `last_end` that already has more bytes than the length limit:
 * its cut (an end too soon, at the block's end) lies past the limit, so it is the limit's error
 * (internal::length_first), as where the whole input is read at once, rather than read on to
 * its end (which may never come).
 */
bool too_long_so_far(const block &b, size_t last_end, uint64_t limit, error &out) {
  const error e = internal::length_first(limit, document_start(b, last_end), {error_code::unexpected_end, b.size});
  if (e.code != error_code::document_too_long) { return false; }
  out = e;
  return true;
}

/**
 * A record of the lines or json_seq format with no end in more bytes than the limit and two
 * (`overlong`, the stream's last block: nothing after it is read): the first error in it, where
 * that comes no later than the limit's, else the limit's at its start plus the limit. (A
 * record of mostly white space is refused so too, where the whole input read at once would
 * measure its document alone.)
 */
error overlong_record(const block &b, stream_reader &reader, uint64_t limit) {
  const size_t from = document_start(b, 0);
  const result<bool> r = reader.next();
  // An error at the block's end is the cut's: the record goes on past it, as past the limit.
  const error e = !r.ok() && r.error().offset < b.size ? r.error() : error{error_code::document_too_long, from + limit};
  return internal::length_first(limit, from, e);
}

void parse_documents(block &b, stream_reader &reader, stream_format format, uint64_t limit);

/**
 * Parses every document of `b` with `reader`, their tapes copied one after another into b; the
 * strings end in `padding` bytes, as a parser's do (readers of a string may read that far).
 */
void parse_block(block &b, stream_reader &reader, stream_format format, uint64_t limit) {
  parse_documents(b, reader, format, limit);
  try {
    b.strings.resize(b.strings.size() + padding, 0);
  } catch (...) {
    b.documents = 0;
    b.failure = {error_code::out_of_memory, 0};
  }
}

void parse_documents(block &b, stream_reader &reader, stream_format format, uint64_t limit) {
  reader.reset(b.in(), b.continues);
  b.documents = 0;
  b.spans.clear();
  b.words.clear();
  b.strings.clear();
  b.failure = {};
  b.incomplete = false;
  size_t last_end = 0;
  try {
    if (b.overlong && format != stream_format::whitespace) {
      b.failure = overlong_record(b, reader, limit);
      return;
    }
    for (;;) {
      const result<bool> r = reader.next();
      if (!r.ok()) {
        if (!cut_short(b, r.error(), format)) {
          b.failure = r.error();
        } else if (!too_long_so_far(b, last_end, limit, b.failure)) {
          b.incomplete = true;
          b.resume = last_end;
        }
        return;
      }
      if (!r.value()) { return; }
      if (may_go_on(b, reader.end())) {
        b.incomplete = true;
        b.resume = last_end;
        return;
      }
      const tape_view t = reader.tape();
      span s{reader.value_index(), reader.begin(), reader.end(), t.words != nullptr, b.words.size(), 0, b.strings.size(), 0};
      if (s.on_tape) {
        tape_extent(t, s.words, s.strings);
        b.words.insert(b.words.end(), t.words, t.words + s.words);
        b.strings.insert(b.strings.end(), t.strings, t.strings + s.strings);
      }
      b.spans.push_back(s);
      last_end = reader.end();
      b.documents++;
    }
  } catch (...) {
    b.failure = {error_code::out_of_memory, last_end};
  }
}

} // namespace

struct block_reader::state {
  block_options options;
  memory_source memory{input{}};
  stream_source *source = nullptr;
  bool direct = false;        // one thread over an input parsed in place: one block, no copy
  input whole;                // direct: that input

  // Cutting (the caller's thread).
  std::vector<uint8_t> pending; // read past the last cut: the next block's first bytes
  uint64_t pending_base = 0;
  size_t carried = 0;           // pending starts with a document cut short: no cut within it
  size_t unbounded = 0;         // the last block cut or tried with no boundary and no limit (0: none since one)
  line_count cut_lines;         // count_lines: the lines before pending_base
  std::optional<stream_reader> probe; // reads a record with no end yet as it is (record_fails)
  bool source_done = false;     // the final block is cut
  bool finished = false;

  // One thread: the current block, read as next() goes.
  stream_reader reader;
  block lazy;
  bool lazy_active = false;
  size_t lazy_last_end = 0;

  // Threads: blocks in stream order, parsed ahead.
  std::mutex mutex;
  std::condition_variable work, parsed;
  std::deque<std::unique_ptr<block>> ring;
  std::vector<std::unique_ptr<block>> spare;
  std::vector<std::thread> workers;
  bool stopping = false;
  size_t taken = 0; // documents of ring.front() returned

  // The current document.
  tape_view parsed_tape;         // threads: its tape (in its block, or in the caller's document)
  span current{tape_view::first, 0, 0, false, 0, 0, 0, 0};
  const uint8_t *current_bytes = nullptr; // the block's bytes (current.begin is within them)
  uint64_t current_base = 0;
  uint64_t count = 0;

  state(const block_options &o) : options(o), reader(input{}, o.format, o.parser) {
    if (options.block_size == 0) { options.block_size = 1; }
    if (options.threads == 0) { options.threads = 1; }
  }

  ~state() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    work.notify_all();
    for (std::thread &t : workers) { t.join(); }
  }

  error fail(error e, uint64_t base) {
    finished = true;
    e.offset += base;
    return e;
  }

  /** Where to cut the block [0, size): at its last boundary past `from`; 0: none. */
  size_t find_cut(const block &b, size_t from) const {
    const uint8_t separator = options.format == stream_format::json_seq ? record_separator : uint8_t('\n');
    const size_t before = options.format == stream_format::json_seq ? 1 : 0; // json_seq: cut before the RS
    // The stream's first block is not cut within its first 3 bytes: the checks at the start of
    // a stream (a byte order mark, UTF-16's zero bytes) read that many, and the next block is
    // read as a continuation, without them.
    const size_t first = b.continues ? 1 : 3;
    for (size_t i = b.size; i > from; i--) { // the bytes from `from` on
      const size_t at = i - before;
      if (b.bytes[i - 1] == separator && at >= first) { return at; }
    }
    return 0;
  }

  /**
   * Whether the record `b` holds (lines or json_seq, no boundary in it yet) is in error before
   * its bytes end, read as it is. Every record counts as tried (`unbounded`), so that a long
   * one is read again only each time its block doubles.
   */
  bool record_fails(block &b) {
    unbounded = b.size;
    std::memset(b.bytes.data() + b.size, 0, padding);
    if (!probe) { probe.emplace(input{}, options.format, options.parser); }
    return internal::fails_before_its_end(*probe, b.in(), b.continues);
  }

  /**
   * With no limit, a record of the lines or json_seq format that is so far white space alone (past
   * its RS) keeps only its last few bytes (internal::blank_kept), the block's base moved past the
   * rest: a stream of white space with no end is then held a few steps at a time, not whole.
   * With a limit, such a record is refused past it (overlong_record). Whether it dropped bytes.
   */
  bool drop_blank(block &b) {
    if (options.format == stream_format::whitespace) { return false; } // it holds them a block at a time
    // json_seq: the block starts with an RS where it continues a stream (it is cut before one);
    // at the stream's start, the first RS may also begin it, past which the stream continues.
    const bool separator = options.format == stream_format::json_seq && b.bytes[0] == record_separator;
    if (b.size <= internal::blank_kept + separator ||
        !std::all_of(b.bytes.data() + separator, b.bytes.data() + b.size, is_space)) {
      return false;
    }
    const size_t dropped = b.size - internal::blank_kept;
    if (options.count_lines) { b.before.add(b.bytes.data(), dropped); }
    std::memmove(b.bytes.data(), b.bytes.data() + dropped, internal::blank_kept);
    b.base += dropped;
    b.size = internal::blank_kept;
    b.continues = b.continues || separator; // json_seq: the kept bytes are read as the RS's record
    return true;
  }

  /** The next block: the bytes left past the last cut, then the source's, up to a boundary. */
  error cut(block &b) {
    b.before = cut_lines;
    b.base = pending_base;
    b.continues = b.base > 0;
    b.size = pending.size();
    b.final = b.overlong = false;
    b.at = block::stage::cut;
    const size_t step = options.block_size;
    if (b.bytes.size() < b.size + step + padding) { b.bytes.resize(b.size + step + padding); }
    if (b.size > 0) { std::memcpy(b.bytes.data(), pending.data(), b.size); }
    pending.clear();
    size_t searched = carried;
    carried = 0;
    size_t want = searched >= b.size ? b.size + step : std::max(b.size, step);
    for (;;) {
      while (b.size < want) {
        if (b.bytes.size() < want + padding) { b.bytes.resize(want + padding); }
        const result<size_t> r = source->read(b.bytes.data() + b.size, want - b.size);
        if (!r.ok()) { return {r.error().code, b.base + b.size}; }
        if (r.value() == 0) { break; }
        b.size += r.value();
      }
      if (b.size < want) { // the source's end
        b.final = true;
        break;
      }
      if (const size_t at = find_cut(b, searched); at > 0) {
        pending.assign(b.bytes.begin() + ptrdiff_t(at), b.bytes.begin() + ptrdiff_t(b.size));
        pending_base = b.base + at;
        b.size = at;
        unbounded = 0;
        break;
      }
      const uint64_t limit = options.parser.max_document_length;
      if (limit == 0 && b.size >= 2 * step && drop_blank(b)) {
        searched = b.size;
        want = b.size + step;
        continue;
      }
      // With no limit, a line of the whitespace format is read as it is (as past a limit, below)
      // once the block holds twice a step and twice the last such block: bytes that are not
      // JSON (a device of zeros) are then an error within a few blocks rather than read into
      // memory to a line end that may never come, and a long document, read again with each
      // block that ends inside it, is read about twice in all (the blocks double).
      // (A stream's first block holds at least its first 3 bytes, which the checks at its start read.)
      const bool doubled = limit == 0 && options.format == stream_format::whitespace &&
                           internal::due_a_try(b.size, step, unbounded) && (b.continues || b.size >= 3);
      // A block of white space alone carries nothing into the next, which need not be larger:
      // a stream of white space with no line end is then held two steps at a time. With
      // threads, blocks are cut ahead of the parse: the doubling is set as each is taken
      // (next_parsed), from what it carries, not from its size here.
      if (doubled && options.threads <= 1) { unbounded = document_start(b, 0) == b.size ? 0 : b.size; }
      // So too, with no limit, a record of the lines or json_seq format with no end yet, at the
      // same sizes: an error before the bytes end (not the end too soon that any record cut
      // short gives) is the record's error wherever it ends, so the record is refused then
      // (overlong_record) rather than read into memory to an end that may never come.
      // (Never fewer than 3 bytes of its document: the checks of a stream's and a record's
      // first bytes read that many.)
      const bool refused = limit == 0 && options.format != stream_format::whitespace &&
                           internal::due_a_try(b.size, step, unbounded) && document_start(b, 0) + 3 <= b.size &&
                           record_fails(b);
      if (doubled || refused || (limit > 0 && b.size > limit + 2)) {
        // No boundary in more bytes than a document may take. In the whitespace format its
        // documents may share a line: it is read as it is, the one it ends inside read again
        // with the next block, or an error once longer than the limit. In the others it is one
        // record past the limit, and the stream's last (overlong_record).
        b.overlong = true;
        if (options.format == stream_format::whitespace) {
          pending_base = b.base + b.size; // the next block starts where this one ends
        } else {
          b.final = true;
        }
        break;
      }
      searched = b.size;
      want = b.size + step;
    }
    std::memset(b.bytes.data() + b.size, 0, padding);
    if (b.final) { source_done = true; }
    if (options.count_lines) { // the block's own bytes: up to where the next one starts
      cut_lines = b.before;
      cut_lines.add(b.bytes.data(), b.final ? b.size : size_t(pending_base - b.base));
    }
    return {};
  }

  // One thread.

  result<bool> next_lazy(document *into) {
    for (;;) {
      if (!lazy_active) {
        if (source_done) { return false; }
        if (error e = cut(lazy); !e.ok()) { return fail(e, 0); }
        reader.reset(lazy.in(), lazy.continues);
        lazy_active = true;
        lazy_last_end = 0;
      }
      if (lazy.overlong && options.format != stream_format::whitespace) {
        return fail(overlong_record(lazy, reader, options.parser.max_document_length), lazy.base);
      }
      const result<bool> r = into != nullptr ? reader.next(*into) : reader.next();
      const bool short_cut = !r.ok() && !direct && cut_short(lazy, r.error(), options.format);
      if (short_cut || (r.ok() && r.value() && may_go_on(lazy, reader.end()))) {
        if (error e; short_cut && too_long_so_far(lazy, lazy_last_end, options.parser.max_document_length, e)) {
          return fail(e, lazy.base);
        }
        // Read it again at the start of the next block.
        pending.insert(pending.begin(), lazy.bytes.begin() + ptrdiff_t(lazy_last_end), lazy.bytes.begin() + ptrdiff_t(lazy.size));
        pending_base = lazy.base + lazy_last_end;
        carried = lazy.size - lazy_last_end;
        // A block read as it is that gave documents carries only the last one's start: the next
        // block need only be twice that (documents sharing a line of any length are then held a
        // few steps at a time); one that gave none doubles, so a long document is read about
        // twice in all.
        if (lazy.overlong && lazy_last_end > 0) { unbounded = carried; }
        if (options.count_lines) {
          cut_lines = lazy.before;
          cut_lines.add(lazy.bytes.data(), lazy_last_end);
        }
        lazy_active = false;
        continue;
      }
      if (!r.ok()) { return fail(r.error(), lazy.base); }
      if (!r.value()) {
        lazy_active = false;
        if (direct) { source_done = true; }
        if (lazy.overlong) { unbounded = 0; } // (it carries nothing)
        continue;
      }
      lazy_last_end = reader.end();
      current = {reader.value_index(), reader.begin(), reader.end(), reader.tape().words != nullptr, 0, 0, 0, 0};
      current_bytes = direct ? whole.data : lazy.bytes.data();
      current_base = lazy.base;
      count++;
      return true;
    }
  }

  // Threads.

  void start_workers() {
    try {
      for (unsigned t = 1; t < options.threads; t++) {
        workers.emplace_back([this] { work_loop(); });
      }
    } catch (...) { // no thread to be had: the caller's thread parses what the others do not
    }
  }

  void work_loop() {
    stream_reader own(input{}, options.format, options.parser);
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      block *b = nullptr;
      for (auto &p : ring) {
        if (p->at == block::stage::cut) {
          b = p.get();
          break;
        }
      }
      if (b == nullptr) {
        if (stopping) { return; }
        work.wait(lock);
        continue;
      }
      b->at = block::stage::parsing;
      lock.unlock();
      parse_block(*b, own, options.format, options.parser.max_document_length);
      lock.lock();
      b->at = block::stage::parsed;
      parsed.notify_all();
    }
  }

  /** Cuts blocks until `threads + 1` are in flight or the stream is all cut. */
  error fill() {
    while (!source_done && ring.size() < options.threads + 1) {
      std::unique_ptr<block> b;
      if (!spare.empty()) {
        b = std::move(spare.back());
        spare.pop_back();
      } else {
        b = std::make_unique<block>();
      }
      if (error e = cut(*b); !e.ok()) { return e; }
      {
        std::lock_guard<std::mutex> lock(mutex);
        ring.push_back(std::move(b));
      }
      work.notify_one();
    }
    return {};
  }

  /** Waits until ring[i] is parsed; parses it here where no worker has taken it. */
  void await(size_t i) {
    std::unique_lock<std::mutex> lock(mutex);
    block &b = *ring[i];
    if (b.at == block::stage::cut) {
      b.at = block::stage::parsing;
      lock.unlock();
      parse_block(b, reader, options.format, options.parser.max_document_length);
      lock.lock();
      b.at = block::stage::parsed;
      return;
    }
    parsed.wait(lock, [&] { return b.at == block::stage::parsed; });
  }

  /** The current document's tape copied into `into`, which keeps it. */
  tape_view keep(document &into) {
    if (!into.state_) { throw std::bad_alloc(); }
    simdjson::dom::document &d = into.state_->dom;
    const size_t need = std::max(current.words, current.strings);
    if (d.capacity() < need && d.allocate(need) != simdjson::SUCCESS) { throw std::bad_alloc(); }
    std::memcpy(d.tape.get(), parsed_tape.words, current.words * sizeof(uint64_t));
    if (current.strings > 0) { std::memcpy(d.string_buf.get(), parsed_tape.strings, current.strings); }
    into.state_->parsed = true;
    return into.tape();
  }

  /** block_reader::line_and_column. */
  bool line_and_column(uint64_t offset, uint64_t &line, uint64_t &col) const {
    const uint8_t *bytes = nullptr;
    size_t size = 0;
    uint64_t base = 0;
    line_count at;
    if (direct) {
      bytes = whole.data;
      size = whole.size;
    } else if (options.count_lines && options.threads > 1 && !ring.empty()) {
      const block &b = *ring.front();
      bytes = b.bytes.data(), size = b.size, base = b.base, at = b.before;
    } else if (options.count_lines && options.threads <= 1) {
      bytes = lazy.bytes.data(), size = lazy.size, base = lazy.base, at = lazy.before;
    }
    if (bytes == nullptr || offset < base || offset - base > size) { return false; }
    at.add(bytes, size_t(offset - base));
    line = at.line();
    col = at.column(offset);
    return true;
  }

  /** next() and next(document&): the next document, its tape kept in `into` where given. */
  result<bool> step(document *into) noexcept {
    if (finished) { return false; }
    try {
      return options.threads > 1 ? next_parsed(into) : next_lazy(into);
    } catch (...) {
      return fail({error_code::out_of_memory, 0}, 0);
    }
  }

  void drop_front() {
    std::lock_guard<std::mutex> lock(mutex);
    spare.push_back(std::move(ring.front()));
    ring.pop_front();
    taken = 0;
  }

  result<bool> next_parsed(document *into) {
    for (;;) {
      if (error e = fill(); !e.ok()) { return fail(e, 0); }
      if (ring.empty()) { return false; }
      await(0);
      block &b = *ring.front();
      if (taken < b.documents) {
        current = b.spans[taken];
        parsed_tape = current.on_tape ? b.tape(current) : tape_view{};
        if (into != nullptr && current.on_tape) { parsed_tape = keep(*into); }
        current_bytes = b.bytes.data();
        current_base = b.base;
        taken++;
        count++;
        return true;
      }
      if (!b.failure.ok()) { return fail(b.failure, b.base); }
      // A block read as it is, now taken: the blocks cut from here on need only be twice what it
      // carries into the next (nothing, or its last document's start, which is all of it for a
      // long document: they double, and it is read about twice in all after the few blocks cut
      // ahead).
      if (b.overlong) { unbounded = b.incomplete ? b.size - b.resume : 0; }
      if (b.incomplete) { // its last document, with the next block, makes the next block
        if (ring.size() < 2) { return fail({error_code::unexpected_end, b.size}, b.base); }
        await(1);
        block &n = *ring[1];
        std::vector<uint8_t> joined;
        joined.reserve(b.size - b.resume + n.size + padding);
        joined.insert(joined.end(), b.bytes.begin() + ptrdiff_t(b.resume), b.bytes.begin() + ptrdiff_t(b.size));
        joined.insert(joined.end(), n.bytes.begin(), n.bytes.begin() + ptrdiff_t(n.size));
        n.size = joined.size();
        joined.resize(n.size + padding, 0);
        n.bytes.swap(joined);
        n.base = b.base + b.resume;
        n.continues = n.base > 0;
        if (options.count_lines) {
          n.before = b.before;
          n.before.add(b.bytes.data(), b.resume);
        }
        parse_block(n, reader, options.format, options.parser.max_document_length);
      }
      drop_front();
    }
  }
};

block_reader::block_reader(input in, block_options options) noexcept {
  try {
    state_ = std::make_unique<state>(options);
    state &s = *state_;
    s.memory = memory_source(in);
    s.source = &s.memory;
    if (!in.well_formed()) {
      s.finished = true;
      s.source_done = true;
    } else if (s.options.threads <= 1 && in.parsed_in_place()) {
      s.direct = true;
      s.whole = in;
      s.lazy.size = in.size;
      s.lazy.final = true;
      s.reader.reset(in, false);
      s.lazy_active = true;
    }
    if (s.options.threads > 1) { s.start_workers(); }
  } catch (...) {
    state_.reset();
  }
}

block_reader::block_reader(stream_source &source, block_options options) noexcept {
  try {
    state_ = std::make_unique<state>(options);
    state_->source = &source;
    if (state_->options.threads > 1) { state_->start_workers(); }
  } catch (...) {
    state_.reset();
  }
}

block_reader::~block_reader() = default;

result<bool> block_reader::next() noexcept { return state_ ? state_->step(nullptr) : error{error_code::out_of_memory, 0}; }

result<bool> block_reader::next(document &into) noexcept {
  return state_ ? state_->step(&into) : error{error_code::out_of_memory, 0};
}

bool block_reader::ready() const noexcept {
  if (!state_ || state_->options.threads <= 1 || state_->finished) { return true; }
  const state &s = *state_;
  return !s.ring.empty() && s.ring.front()->at == block::stage::parsed && s.taken < s.ring.front()->documents;
}

tape_view block_reader::tape() const noexcept {
  if (!state_ || !state_->current.on_tape) { return {}; }
  return state_->options.threads > 1 ? state_->parsed_tape : state_->reader.tape();
}

size_t block_reader::value_index() const noexcept { return state_ ? state_->current.value_index : tape_view::first; }
const uint8_t *block_reader::bytes() const noexcept {
  return state_ && state_->current_bytes ? state_->current_bytes + state_->current.begin : nullptr;
}
uint64_t block_reader::begin() const noexcept { return state_ ? state_->current_base + state_->current.begin : 0; }
uint64_t block_reader::end() const noexcept { return state_ ? state_->current_base + state_->current.end : 0; }
uint64_t block_reader::count() const noexcept { return state_ ? state_->count : 0; }

bool block_reader::line_and_column(uint64_t offset, uint64_t &line, uint64_t &col) const noexcept {
  return state_ && state_->line_and_column(offset, line, col);
}

} // namespace simdbridge
