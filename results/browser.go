package results

// BrowserCell is one transport's page loads in the browser.
type BrowserCell struct {
	Protocol string `json:"protocol"`
	// Page says which page was loaded (webpage.Page's Source).
	Page string `json:"page"`
	// Browser is the browser's product and version.
	Browser string `json:"browser,omitempty"`
	// Skipped says why the transport was not loaded; "" when it was.
	Skipped string `json:"skipped,omitempty"`
	// Failed says the transport was skipped because the browser could not
	// load over it (it is not installed, it exited, the certificate check
	// failed), not because browsers or the target do not speak it.
	Failed bool `json:"failed,omitempty"`
	// Objects is how many objects the page has; 0 when unknown (a
	// directory page: the browser fetches what its index.html references).
	Objects int `json:"objects"`
	// LoadEvent is the load-event time over the loads that completed and
	// agreed (Excluded left out), seconds: their geometric mean with its
	// 95% interval.
	LoadEvent Spread `json:"load_event_seconds"`
	// LastByte is the time to the last object's last byte, seconds (the
	// model's figure), over the same loads, the same way.
	LastByte Spread `json:"last_byte_seconds"`
	// Model holds LastByte against page-load's cell over the same
	// transport, with LoadEvent beside it; nil when the run has none or
	// the page is not the model's.
	Model *ModelCheck `json:"model,omitempty"`
	// Disagrees says how the browser's loads disagreed with the transport
	// asked for or with the server's own counters (objects, connections,
	// transports); "" when every load agreed.
	Disagrees string `json:"disagrees,omitempty"`
	// Excluded is how many completed loads disagreed (Disagrees): their
	// objects came over another transport, failed, or do not match the
	// server's counts, so they do not measure the transport asked for and
	// are left out of LoadEvent and LastByte.
	Excluded int `json:"excluded_loads,omitempty"`
	// VsBaseline is the baseline's last byte over this transport's, load
	// by load within a round (above 1: this transport loads the page
	// sooner), over the rounds where both loads completed and agreed: the
	// geometric mean of those ratios with its 95% interval and verdict, as
	// every other cell's VsBaseline. Nil for the baseline itself and where no
	// round paired (SetBrowserVerdict).
	VsBaseline *Interval `json:"vs_baseline,omitempty"`
	// Baseline is the transport VsBaseline is to: h1, or h1-tls when h1
	// was not loaded; "" where VsBaseline is nil.
	Baseline string        `json:"baseline,omitempty"`
	Loads    []BrowserLoad `json:"loads"`
}

// BrowserLoad is one load of the page in the browser.
type BrowserLoad struct {
	Round            int     `json:"round"`
	LoadEventSeconds float64 `json:"load_event_seconds"` // navigation start to the load event
	LastByteSeconds  float64 `json:"last_byte_seconds"`  // document request to the last object's last byte
	// Objects is the requests the browser made, Failed those that failed.
	Objects int `json:"objects"`
	Failed  int `json:"failed"`
	// ByTransport counts the objects by the transport the browser says
	// each came over (httpvs's names; the browser's own for others).
	ByTransport map[string]int `json:"by_transport"`
	// Connections is how many connections the browser says the objects
	// came over (distinct connection ids).
	Connections int `json:"connections"`
	// ServerRequests and ServerConnections are the server's counts for
	// the transport over the load (its /stats); ServerOther its requests
	// over other transports. Nil when the counters were unavailable.
	ServerRequests    *int64 `json:"server_requests,omitempty"`
	ServerConnections *int64 `json:"server_connections,omitempty"`
	ServerOther       *int64 `json:"server_other_requests,omitempty"`
	// Link is what the emulated link did over the load; nil without one.
	Link *RepetitionLink `json:"link,omitempty"`
	// Error says why the load did not complete; "" when it did.
	Error string `json:"error,omitempty"`
}
