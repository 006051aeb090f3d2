// `vqm merge`'s command line (merge.hpp does the merging): flags as the single run's output flags.
#pragma once

#include <algorithm>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "errors.hpp"
#include "format_flags.hpp"
#include "merge.hpp"
#include "std_streams.hpp"

namespace vqm::cli {

// `vqm merge ...` (argv[0] is "merge"): parses, merges, prints errors as one line; returns the exit status.
inline int merge_cli(int argc, char** argv) {
  merge_options o;
  CLI::App app{"vqm merge: the report of a whole run from the shards of its frames (vqm ... --frame-range A:B "
               "--shard-out FILE), byte for byte as the single run writes it but the fps",
               "vqm merge"};
  app.set_help_flag("--help", "Print this help and exit");
  app.add_option("shards", o.shards, "Shard files, in any order")->required();
  add_format_flags(app, o.json, o.csv, o.xml, o.sub);
  app.add_option("-o,--output", o.output, "Output file ('-' for stdout); without it a summary goes to stdout");
  app.add_option("--pool", o.pool, "Pooled statistics to write, as the single run's --pool");
  app.add_option("--precision", o.precision, "Score digits, as the single run's --precision");
  app.add_flag("-q,--quiet", o.quiet, "Accepted for symmetry with the single run (merge prints no notes)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    std::ostringstream out, err;
    const int rc = app.exit(e, out, err);
    fmt::print("{}", out.str());
    return rc;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    eprint("vqm: error: merge: {} (see vqm merge --help)\n", msg);
    return exit_usage;
  }
  try {
    merge_detail::run_merge(o);
    flush_stdout();
    return exit_ok;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    eprint("vqm: error: {}\n", describe_failure(e));
    return exit_status_of(e);
  }
}

}  // namespace vqm::cli
