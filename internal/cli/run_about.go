package cli

// runAbout is how to read run's first screen, for run -h; the method in
// full is docs/run.md's.
const runAbout = `Measures every scenario over every transport in rounds (each round runs every column once, in
a fresh random order) and prints the answer first; --detail adds the tables behind it.

Reading the first screen:
  header     the build, where it ran, the machine, Go, the knob set, the rounds a cell got, and
             how many cells the verdict decided
  table      each transport's throughput or req/s over the baseline's (h1 unless it was not
             measured; for timed scenarios, the baseline's time over its), the geometric mean of
             the rounds' ratios with both bounds of its 95%% interval: 0.54x [0.32, 0.91]. A
             group-sequential rule stops a cell once its interval excludes 1 (slower or faster:
             no mark) or lies within a difference of %.0f%% (≈); ? marks a cell it could not decide.
             † machine-bound, ~ within the A/A's reach, ! cut short; a superscript names the
             cell's main cause below
  A/A        the baseline measured twice in the same rounds: it should read ≈
  :tuned     the tuned rows against Go as shipped, each its own paired test by round
  ¹ ² ...    one line per cause: what the rule found and the setting that tries its fix
  caveats    about the machine or the measurement, not the transport
  next       what to run next

Method, rules and what the intervals are worth: docs/run.md, docs/diagnostics.md and the
records in docs/measurements/. It cites golang/go#47840, the gonuget benchmark, the gRPC
ServeHTTP post and the gin post, whose experiments the scenarios reproduce.`
