package runfiles

import (
	"fmt"
	"os"

	"github.com/httpvs/httpvs/results"
)

// ReadResults reads the results.json at path (compare and explain read
// them); an error reading its content names the file.
func ReadResults(path string) (*results.Results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	res, err := results.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return res, nil
}
