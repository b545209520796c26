package merge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/httpvs/httpvs/load/loadresult"
)

// ErrEmpty is Read's error for input that holds no JSON value.
var ErrEmpty = errors.New("empty: no load result")

// Read decodes the load results in r: one JSON object, as httpvs load
// --json prints, or several one after another (the logs of several
// generators concatenated). Each is a Part named name, or name#k (k from
// 1) when r holds more than one. A value that is not a load result of this
// schema version is a *PartError; text that is not JSON an error naming
// its offset.
func Read(name string, r io.Reader) ([]Part, error) {
	dec := json.NewDecoder(r)
	var raws []json.RawMessage
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: not JSON at byte %d: %w", name, dec.InputOffset(), err)
		}
		raws = append(raws, raw)
	}
	if len(raws) == 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrEmpty)
	}
	parts := make([]Part, len(raws))
	for i, raw := range raws {
		parts[i].Name = name
		if len(raws) > 1 {
			parts[i].Name = fmt.Sprintf("%s#%d", name, i+1)
		}
		if err := decodePart(raw, &parts[i].Result); err != nil {
			return nil, &PartError{Name: parts[i].Name, Err: err}
		}
	}
	return parts, nil
}

// decodePart checks the kind and version before decoding the rest, so that
// another kind of file is named as such rather than as a field's type error.
func decodePart(raw json.RawMessage, r *loadresult.Result) error {
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return fmt.Errorf("%w: a JSON %s, not an object", ErrNotLoad, kindOfJSON(raw))
	}
	var head struct {
		Kind          string `json:"kind"`
		SchemaVersion int    `json:"schema_version"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return fmt.Errorf("%w: %v", ErrNotLoad, err)
	}
	if head.Kind != loadresult.Kind {
		return fmt.Errorf("%w: kind %q", ErrNotLoad, head.Kind)
	}
	if head.SchemaVersion != loadresult.SchemaVersion {
		return fmt.Errorf("%w: schema_version %d; this httpvs reads %d", ErrSchema, head.SchemaVersion, loadresult.SchemaVersion)
	}
	return json.Unmarshal(raw, r)
}

func kindOfJSON(raw json.RawMessage) string {
	switch b := bytes.TrimSpace(raw); {
	case len(b) == 0:
		return "nothing"
	case b[0] == '[':
		return "array"
	case b[0] == '"':
		return "string"
	case b[0] == 'n':
		return "null"
	case b[0] == 't' || b[0] == 'f':
		return "boolean"
	default:
		return "number"
	}
}
