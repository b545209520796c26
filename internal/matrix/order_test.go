package matrix

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestRoundsShuffledWithWarmupAndAA runs three columns (h1, h2c and h1's
// A/A column) for a warm-up round and six measured ones: the warm-up
// round comes first and is discarded; every measured round has each
// column once, in orders that differ between rounds; the A/A cell is kept
// apart from the transports' cells, paired with h1 in every round.
func TestRoundsShuffledWithWarmupAndAA(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	var (
		mu     sync.Mutex
		warm   []string
		orders = map[int][]string{}
	)
	const seed, rounds = 42, 6
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "small-sequential"),
		Repeat:    rounds,
		Duration:  20 * time.Millisecond,
		Seed:      seed,
		AA:        []string{"small-sequential"},
		Progress: func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			if p.Warmup {
				if len(orders) > 0 {
					t.Errorf("a warm-up measurement after measured rounds: %+v", p)
				}
				warm = append(warm, p.Protocol)
				return
			}
			orders[p.Repetition] = append(orders[p.Repetition], p.Protocol)
		},
	}, Wiring: Wiring{Target: target(t, h)}})
	if err != nil {
		t.Fatal(err)
	}
	aa := analysis.AAColumn("h1")
	checkOrders(t, warm, orders, []string{"h1", "h2c", aa}, rounds)
	checkAACells(t, res, aa, rounds)
	s := res.Settings
	if s.Seed != seed || s.WarmupRounds != 1 || !slices.Equal(s.AA, []string{"small-sequential"}) || s.Rounds != analysis.RoundsBySpread {
		t.Fatalf("settings seed %d, warm-up rounds %d, A/A %v, rounds %q", s.Seed, s.WarmupRounds, s.AA, s.Rounds)
	}
	if n := analysis.AllFloor(res); n.Cells != 1 || n.Resolution <= 0 {
		t.Fatalf("noise floor %+v: want one A/A interval", n)
	}
}

// checkOrders checks that the warm-up round and every measured round
// measured each of cols once, and that the rounds' orders differ.
func checkOrders(t *testing.T, warm []string, orders map[int][]string, cols []string, rounds int) {
	t.Helper()
	want := slices.Sorted(slices.Values(cols))
	if s := slices.Sorted(slices.Values(warm)); !slices.Equal(s, want) {
		t.Fatalf("warm-up round measured %v, want each of %v once", warm, cols)
	}
	distinct := map[string]bool{}
	for round := 1; round <= rounds; round++ {
		o := orders[round]
		if s := slices.Sorted(slices.Values(o)); !slices.Equal(s, want) {
			t.Fatalf("round %d measured %v, want each of %v once", round, o, cols)
		}
		distinct[strings.Join(o, ",")] = true
	}
	if len(distinct) < 2 {
		t.Fatalf("every round in the same order %v", orders[1])
	}
}

// checkAACells checks that the A/A cell is kept apart from the
// transports', paired with h1 in every round, and that the transports'
// cells have the measured rounds alone (the warm-up discarded).
func checkAACells(t *testing.T, res *results.Results, aa string, rounds int) {
	t.Helper()
	for _, c := range res.Cells {
		if c.Protocol == aa {
			t.Fatalf("the A/A cell among the transports' cells")
		}
		if c.Scenario == "small-sequential" && len(c.Repetitions) != rounds {
			t.Fatalf("%s: %d repetitions, want %d (the warm-up discarded)", c.Protocol, len(c.Repetitions), rounds)
		}
	}
	if len(res.AA) != 1 || res.AA[0].Protocol != aa || res.AA[0].VsBaseline == nil || res.AA[0].VsBaseline.Pairs != rounds {
		t.Fatalf("A/A cells %+v: want one %q paired %d times", res.AA, aa, rounds)
	}
}

// TestWarmupRoundIsAQuarter runs a fixed-size download for a warm-up
// round and two measured ones: the warm-up round asks for a quarter of
// the size, once per column, before any full-size transfer;
// each measured round asks for the whole.
func TestWarmupRoundIsAQuarter(t *testing.T) {
	const size = 8 << 20
	var (
		mu    sync.Mutex
		asked []int
	)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/bytes/"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		asked = append(asked, n)
		mu.Unlock()
		w.Write(make([]byte, n))
	})
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "download"),
		Repeat:    2,
		Size:      size,
		Duration:  20 * time.Millisecond,
	}, Wiring: Wiring{Target: target(t, h)}})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Cell("download", "h2c"); c == nil || len(c.Repetitions) != 2 || c.Repetitions[0].Bytes != size {
		t.Fatalf("h2c cell %+v: want two repetitions of %d bytes", c, size)
	}
	var big []int
	for _, n := range asked {
		if n >= size/4 {
			big = append(big, n)
		}
	}
	// The checks before the rounds ask for less; then two columns' warm-up
	// and two rounds of two columns.
	if want := []int{size / 4, size / 4, size, size, size, size}; !slices.Equal(big, want) {
		t.Fatalf("transfers asked for %v (beyond the checks), want %v", big, want)
	}
}
