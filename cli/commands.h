// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_CLI_COMMANDS_H
#define SIMDBRIDGE_CLI_COMMANDS_H

namespace simdbridge::cli {

/** `simdbridge bench [--json] [--rounds N] [--sample-ms MS] [FILE...]`; returns the exit code. */
int run_bench(int argc, char **argv);

} // namespace simdbridge::cli

#endif // SIMDBRIDGE_CLI_COMMANDS_H
