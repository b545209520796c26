package results

// Metric names: what a cell's Value measures. The per-second metrics are
// higher-is-better, MetricSeconds lower-is-better.
const (
	MetricBytesPerSecond    = "bytes_per_second"    // body bytes moved per second, all streams
	MetricRequestsPerSecond = "requests_per_second" // completed requests per second
	// MetricSeconds is a time, in seconds, of the scenario's unit of work
	// (a cold request, a page load, a small request beside a download):
	// the median over the repetition.
	MetricSeconds = "seconds"
)

// ScenarioInfo is what a scenario is, as reports title it; package matrix
// holds how each is measured.
type ScenarioInfo struct {
	// Name is what --scenarios takes and what each cell carries.
	Name string
	// Reproduces names the public experiments or sources it follows, e.g.
	// "golang/go#47840", as users can look them up.
	Reproduces string
	// Description says what it does, in one line.
	Description string
	// Metric is what its cells' Value measures (MetricBytesPerSecond, ...).
	Metric string
}
