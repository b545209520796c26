package merge

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestReadOneOrSeveralObjects(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	a := part(t, "a", rng, 10, t0, 1, nil)
	b := part(t, "b", rng, 20, t0, 1, nil)
	ja, _ := json.Marshal(a.Result)
	jb, _ := json.MarshalIndent(b.Result, "", "  ")
	one, err := Read("f", strings.NewReader(string(ja)))
	if err != nil || len(one) != 1 || one[0].Name != "f" || one[0].Result.Succeeded != 10 {
		t.Fatalf("one object: %v %+v", err, one)
	}
	two, err := Read("logs", strings.NewReader(string(ja)+"\n"+string(jb)+"\n"))
	if err != nil || len(two) != 2 || two[1].Name != "logs#2" || two[1].Result.Succeeded != 20 {
		t.Fatalf("two objects: %v", err)
	}
	if two[0].Result.Histograms.Latency != a.Result.Histograms.Latency {
		t.Fatal("histogram changed through JSON")
	}
}

func TestReadRefusesOtherInput(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "empty"},
		{"blank", " \n", "empty"},
		{"array", "[1]", "a JSON array"},
		{"other kind", `{"kind":"run","schema_version":1}`, `kind "run"`},
		{"no kind", `{"requests":3}`, `kind ""`},
		{"newer", `{"kind":"load","schema_version":9}`, "schema_version 9"},
		{"text", "Running 10s test @ http://x\n", "not JSON at byte"},
	} {
		_, err := Read("f", strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "f") {
			t.Errorf("%s: err %v, want it to name f and say %q", c.name, err, c.want)
		}
	}
	_, err := Read("f", strings.NewReader(""))
	if !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
}
