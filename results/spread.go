package results

// Spread is a time over several measurements, seconds: their geometric
// mean with its 95% interval (Student's t on the logarithms), their
// median, and how many there were.
type Spread struct {
	Mean   float64 `json:"mean"`
	Low    float64 `json:"low"`  // 0 with fewer than two values
	High   float64 `json:"high"` // 0 with fewer than two values
	Median float64 `json:"median"`
	N      int     `json:"n"`
}

// ModelCheck holds the browser's last byte against page-load's model over
// the same transport (the model's figure is the time to the last object's
// last byte too), with the load event beside it.
type ModelCheck struct {
	// Model is page-load's time over its repetitions (each one's median
	// page), seconds, as Spread says.
	Model Spread `json:"model_seconds"`
	// Ratio is the browser's mean last-byte time over the model's, Low
	// and High its 95% interval (Welch's: the loads and the rounds are
	// not paired); Low and High are 0 with fewer than two on a side.
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"low,omitempty"`
	High  float64 `json:"high,omitempty"`
	// LoadEventRatio is the browser's mean load-event time over the
	// model's: what the browser adds past the last byte (parsing, layout,
	// scripts) shows as its excess over Ratio. Not compared: the model has
	// no load event.
	LoadEventRatio float64 `json:"load_event_ratio"`
	// Verdict is the ratio's interval judged by the verdict's rule:
	// "agrees", "slower", "faster", "undetermined", or "unknown" with too
	// few loads on a side to tell.
	Verdict string `json:"verdict"`
}
