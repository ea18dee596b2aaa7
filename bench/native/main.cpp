// SPDX-License-Identifier: Apache-2.0
// simdbridge_bench: the checksum engine's throughput beside simdjson used directly (the core
// suite of make bench runs it; not part of the product).
//
//   simdbridge_bench [--json] [--rounds N] [--sample-ms MS] [FILE...]
//
// Without files it reads the corpus: $SIMDBRIDGE_DATA, else the data directory this build was
// configured with.
//
// Method: every subject's checksum is compared with the engine's before anything is timed (the
// fairness contract). Then, for `rounds` rounds, each (file, subject) pair is timed for about
// `sample-ms` milliseconds; the subjects' order rotates from round to round so that no subject
// always runs on a cold or a warm cache. Per-file throughput is the mean of the rounds with a
// 95% confidence interval (Student's t); the aggregate of a round is total bytes over total time,
// and ratios are computed per round, then averaged with their own interval.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <vector>

#include "file_input.h"
#include "machine_info.h"
#include "baseline.h"
#include "simdbridge/parser.h"

namespace simdbridge::bench {

// The CLI's file reading (cli/file_input.h), shared with the tool.
using cli::file_bytes;
using cli::read_file;

namespace {

using clock_type = std::chrono::steady_clock;
using method = baseline::method;

/** The subjects timed: the engine first, then the baselines in baseline::all_methods order. */
constexpr size_t subject_count = 1 + std::size(baseline::all_methods);
constexpr const char *engine_name = "simdbridge-checksum";

const char *subject_name(size_t s) {
  return s == 0 ? engine_name : baseline::name(baseline::all_methods[s - 1]);
}

struct bench_file {
  std::string path;
  std::string name;
  file_bytes content;
  bool stream = false;
  uint64_t checksum = 0;
  uint64_t iterations = 1;
  std::vector<std::vector<double>> seconds; // [subject][round]: seconds per iteration
};

struct stats {
  double mean = 0;
  double ci95 = 0;
};

/** Student's t at 97.5% for `df` degrees of freedom. */
double t_quantile(size_t df) {
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) { return 0; }
  return df <= std::size(table) ? table[df - 1] : 1.96;
}

stats summarize(const std::vector<double> &values) {
  stats s;
  const size_t n = values.size();
  for (double v : values) { s.mean += v; }
  s.mean /= double(n);
  if (n > 1) {
    double squares = 0;
    for (double v : values) { squares += (v - s.mean) * (v - s.mean); }
    s.ci95 = t_quantile(n - 1) * std::sqrt(squares / double(n - 1)) / std::sqrt(double(n));
  }
  return s;
}

std::string data_directory() {
  const char *env = std::getenv("SIMDBRIDGE_DATA");
  return env && *env ? env : SIMDBRIDGE_DEFAULT_DATA;
}

std::vector<std::string> list_directory(const std::string &dir, const char *suffix) {
  std::vector<std::string> out;
  DIR *d = opendir(dir.c_str());
  if (!d) { return out; }
  while (dirent *entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name.size() > std::strlen(suffix) &&
        name.compare(name.size() - std::strlen(suffix), std::string::npos, suffix) == 0) {
      out.push_back(dir + "/" + name);
    }
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

bool is_stream_path(const std::string &path) {
  auto ends = [&](const char *suffix) {
    const size_t n = std::strlen(suffix);
    return path.size() >= n && path.compare(path.size() - n, n, suffix) == 0;
  };
  return ends(".ndjson") || ends(".jsonl");
}

struct runner {
  simdbridge::parser engine;
  simdbridge::baseline baselines;

  result<uint64_t> run(size_t subject, const bench_file &f) {
    const input in = f.content.as_input();
    if (subject == 0) { return f.stream ? engine.checksum_stream(in) : engine.checksum(in); }
    const method m = baseline::all_methods[subject - 1];
    return f.stream ? baselines.checksum_stream(m, in) : baselines.checksum(m, in);
  }

  double time_per_iteration(size_t subject, const bench_file &f, uint64_t iterations) {
    uint64_t sink = 0;
    const auto start = clock_type::now();
    for (uint64_t i = 0; i < iterations; i++) { sink ^= run(subject, f).value(); }
    const auto stop = clock_type::now();
    // Keep the result alive so that no iteration can be optimized away.
    if (sink == 0x5eed) { std::fputc(' ', stderr); }
    return std::chrono::duration<double>(stop - start).count() / double(iterations);
  }
};

void print_row(FILE *out, const char *name, size_t bytes, const std::vector<stats> &mbps) {
  std::fprintf(out, "%-40s %10zu", name, bytes);
  for (const stats &s : mbps) { std::fprintf(out, "  %7.0f ±%5.0f", s.mean, s.ci95); }
  std::fprintf(out, "\n");
}

} // namespace

int run(int argc, char **argv) {
  bool json = false;
  size_t rounds = 10;
  double sample_ms = 20;
  std::vector<std::string> paths;
  for (int i = 0; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--rounds" && i + 1 < argc) {
      rounds = std::max<size_t>(2, std::strtoul(argv[++i], nullptr, 10));
    } else if (arg == "--sample-ms" && i + 1 < argc) {
      sample_ms = std::max(0.1, std::strtod(argv[++i], nullptr));
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "simdbridge_bench: unknown option %s\n", arg.c_str());
      return 2;
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) {
    const std::string data = data_directory();
    paths = list_directory(data + "/jsonexamples", ".json");
    for (auto &p : list_directory(data + "/ndjson", ".ndjson")) { paths.push_back(p); }
    if (paths.empty()) {
      std::fprintf(stderr, "simdbridge_bench: no corpus under %s (set SIMDBRIDGE_DATA, or run make data)\n",
                   data.c_str());
      return 1;
    }
  }

  std::vector<bench_file> files(paths.size());
  runner r;
  for (size_t i = 0; i < paths.size(); i++) {
    bench_file &f = files[i];
    f.path = paths[i];
    f.name = f.path.substr(f.path.find_last_of('/') + 1);
    f.stream = is_stream_path(f.path);
    std::string why;
    if (!read_file(f.path, f.content, why)) {
      std::fprintf(stderr, "%s: error: %s\n", f.path.c_str(), why.c_str());
      return 1;
    }
    // The fairness contract: every subject computes the same checksum, or nothing is timed.
    const result<uint64_t> reference = r.run(0, f);
    if (!reference.ok()) {
      std::fprintf(stderr, "%s: error: %s at byte %" PRIu64 "\n", f.path.c_str(),
                   reference.error().message(), reference.error().offset);
      return 1;
    }
    f.checksum = reference.value();
    for (size_t s = 1; s < subject_count; s++) {
      if (baseline::all_methods[s - 1] == method::dom_parse_only) { continue; }
      const result<uint64_t> other = r.run(s, f);
      if (!other.ok() || other.value() != f.checksum) {
        std::fprintf(stderr,
                     "simdbridge_bench: %s: %s disagrees with the engine (%016" PRIx64
                     " against %016" PRIx64 "); nothing was measured\n",
                     f.name.c_str(), subject_name(s), other.ok() ? other.value() : 0, f.checksum);
        return 3;
      }
    }
    // Calibrate: enough iterations for a sample of about sample_ms.
    r.time_per_iteration(0, f, 1);
    const double once = r.time_per_iteration(0, f, 3);
    f.iterations = std::max<uint64_t>(1, uint64_t(sample_ms / 1000.0 / std::max(once, 1e-9)));
    f.seconds.assign(subject_count, {});
  }

  for (size_t round = 0; round < rounds; round++) {
    std::fprintf(stderr, "\rsimdbridge_bench: round %zu/%zu", round + 1, rounds);
    std::fflush(stderr);
    for (bench_file &f : files) {
      for (size_t k = 0; k < subject_count; k++) {
        const size_t s = (k + round) % subject_count;
        f.seconds[s].push_back(r.time_per_iteration(s, f, f.iterations));
      }
    }
  }
  std::fprintf(stderr, "\n");

  // Per file, per subject: MB/s per round.
  size_t total_bytes = 0;
  std::vector<std::vector<double>> aggregate_seconds(subject_count, std::vector<double>(rounds, 0));
  for (const bench_file &f : files) {
    total_bytes += f.content.length;
    for (size_t s = 0; s < subject_count; s++) {
      for (size_t k = 0; k < rounds; k++) { aggregate_seconds[s][k] += f.seconds[s][k]; }
    }
  }
  auto mbps_of = [](size_t bytes, const std::vector<double> &seconds) {
    std::vector<double> out;
    for (double t : seconds) { out.push_back(double(bytes) / t / 1e6); }
    return summarize(out);
  };
  std::vector<stats> aggregate(subject_count);
  for (size_t s = 0; s < subject_count; s++) { aggregate[s] = mbps_of(total_bytes, aggregate_seconds[s]); }
  // The fastest full walk: the best baseline that visits every value (not parse-only).
  size_t fastest = 0;
  for (size_t s = 1; s < subject_count; s++) {
    if (baseline::all_methods[s - 1] == method::dom_parse_only) { continue; }
    if (fastest == 0 || aggregate[s].mean > aggregate[fastest].mean) { fastest = s; }
  }
  size_t parse_only = 0;
  for (size_t s = 1; s < subject_count; s++) {
    if (baseline::all_methods[s - 1] == method::dom_parse_only) { parse_only = s; }
  }
  auto ratio_of = [&](size_t a, size_t b) {
    std::vector<double> ratios;
    for (size_t k = 0; k < rounds; k++) { ratios.push_back(aggregate_seconds[b][k] / aggregate_seconds[a][k]); }
    return summarize(ratios);
  };
  const stats vs_fastest = ratio_of(0, fastest);
  const stats vs_parse = ratio_of(0, parse_only);

  FILE *table = json ? stderr : stdout;
  std::fprintf(table, "MB/s, mean ± 95%% CI over %zu rounds\n%-40s %10s", rounds, "file", "bytes");
  for (size_t s = 0; s < subject_count; s++) { std::fprintf(table, "  %14.14s", subject_name(s)); }
  std::fprintf(table, "\n");
  for (const bench_file &f : files) {
    std::vector<stats> row;
    for (size_t s = 0; s < subject_count; s++) { row.push_back(mbps_of(f.content.length, f.seconds[s])); }
    print_row(table, f.name.c_str(), f.content.length, row);
  }
  const std::string aggregate_name = "aggregate (" + std::to_string(files.size()) + " files)";
  print_row(table, aggregate_name.c_str(), total_bytes, aggregate);
  std::fprintf(table, "engine / fastest full walk (%s): %.3fx ± %.3f\n", subject_name(fastest),
               vs_fastest.mean, vs_fastest.ci95);
  std::fprintf(table, "engine / parse only (%s): %.3fx ± %.3f\n", subject_name(parse_only),
               vs_parse.mean, vs_parse.ci95);

  if (json) {
    std::printf("{\n  \"machine\": %s,\n", machine_info_json().c_str());
    std::printf("  \"method\": \"mean of %zu rounds of ~%.0f ms per file and subject, subjects' "
                "order rotated per round; 95%% CI by Student's t; aggregate = total bytes / total "
                "time per round; every subject's checksum verified before timing\",\n",
                rounds, sample_ms);
    std::printf("  \"rounds\": %zu,\n  \"subjects\": [", rounds);
    for (size_t s = 0; s < subject_count; s++) { std::printf("%s\"%s\"", s ? ", " : "", subject_name(s)); }
    std::printf("],\n  \"files\": [\n");
    for (size_t i = 0; i < files.size(); i++) {
      const bench_file &f = files[i];
      std::printf("    {\"name\": %s, \"bytes\": %zu, \"stream\": %s, \"checksum\": \"%016" PRIx64
                  "\", \"mbps\": {",
                  json_quote(f.name).c_str(), f.content.length, f.stream ? "true" : "false", f.checksum);
      for (size_t s = 0; s < subject_count; s++) {
        const stats st = mbps_of(f.content.length, f.seconds[s]);
        std::printf("%s\"%s\": {\"mean\": %.2f, \"ci95\": %.2f}", s ? ", " : "", subject_name(s), st.mean, st.ci95);
      }
      std::printf("}}%s\n", i + 1 < files.size() ? "," : "");
    }
    std::printf("  ],\n  \"aggregate\": {\"bytes\": %zu, \"mbps\": {", total_bytes);
    for (size_t s = 0; s < subject_count; s++) {
      std::printf("%s\"%s\": {\"mean\": %.2f, \"ci95\": %.2f}", s ? ", " : "", subject_name(s),
                  aggregate[s].mean, aggregate[s].ci95);
    }
    std::printf("}},\n  \"fastest_full_walk\": \"%s\",\n", subject_name(fastest));
    std::printf("  \"ratio_engine_to_fastest_full_walk\": {\"mean\": %.4f, \"ci95\": %.4f},\n",
                vs_fastest.mean, vs_fastest.ci95);
    std::printf("  \"ratio_engine_to_parse_only\": {\"mean\": %.4f, \"ci95\": %.4f}\n}\n",
                vs_parse.mean, vs_parse.ci95);
  }
  return 0;
}

} // namespace simdbridge::bench

int main(int argc, char **argv) { return simdbridge::bench::run(argc - 1, argv + 1); }
