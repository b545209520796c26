package results

// Finding is one explanation of a cell's figures: what rule fired, the
// evidence (numbers from the cell), and the fix to try.
type Finding struct {
	Rule     string `json:"rule"`
	Evidence string `json:"evidence"`
	// Fix says what to change, in Go (the field and the value); it never
	// names a command's flags.
	Fix string `json:"fix"`
	// Knobs are the settings the fix changes, each a field path as
	// config.FieldError names them; Apply sets them on Options. Empty
	// when the fix is not a setting (the stack's own cost).
	Knobs []Knob `json:"knobs,omitempty"`
	// Figures are the measured figures Evidence states, and for a rule
	// that holds the cell against a model, the model's prediction
	// ("predicted low", "predicted high"), each as a number.
	Figures []Figure `json:"figures,omitempty"`
}

// Figure is one number a finding rests on.
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit,omitempty"`
}

// Knob is one setting a fix changes.
type Knob struct {
	// Field is the setting's Go field path: "Client.ReadSize",
	// "Server.HTTP2.MaxReceiveBufferPerStream", "Engine".
	Field string `json:"field"`
	// Value is what to set it to, as Apply reads it: a size such as
	// "256Ki" (bytes), a count, or an engine name.
	Value string `json:"value"`
}

// String is the finding in one line.
func (f Finding) String() string {
	return f.Evidence + "; " + f.Fix
}

// KnobSet is a named set of settings a run starts from: Go as shipped,
// httpvs's tuned values, or a file written by tune.
type KnobSet struct {
	Name  string `json:"name"`
	Knobs []Knob `json:"knobs"`
	// BestFor says, in a set httpvs tune wrote, which transport each
	// field's value was best for, and what the other transports tuned did
	// best at where they differed: {"Client.ReadSize": "h2c (h2: 64Ki,
	// h3: 64Ki)"}. One client serves every transport, so one value per
	// field is kept; nil in other sets.
	BestFor map[string]string `json:"best_for,omitempty"`
}
