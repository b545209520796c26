package histogram

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func randomDurations(seed uint64, n int) []time.Duration {
	rng := rand.New(rand.NewPCG(seed, 1))
	ds := make([]time.Duration, n)
	for i := range ds {
		// Log-uniform from 100 ns to 20 minutes: below and above the range too.
		ds[i] = time.Duration(100 * math.Pow(10, rng.Float64()*10.1))
	}
	return ds
}

func TestHistogramEncodeRoundTrip(t *testing.T) {
	h := New()
	for _, d := range randomDurations(1, 5000) {
		h.Record(d)
	}
	s, err := h.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s, "HISTFAAA") {
		t.Fatalf("encoding starts %q, want HISTFAAA (V2 compressed, base64)", s[:min(len(s), 12)])
	}
	got, err := Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	if !got.h.Equals(h.h) {
		t.Fatal("decoded histogram differs from the encoded one")
	}
	if got.Summary() != h.Summary() {
		t.Fatalf("summary %+v, want %+v", got.Summary(), h.Summary())
	}
	// An empty histogram round-trips too.
	e, err := New().Encode()
	if err != nil {
		t.Fatal(err)
	}
	if d, err := Decode(e); err != nil || d.Count() != 0 {
		t.Fatalf("empty: count %v, err %v", d, err)
	}
}

// Merging two decoded histograms gives exactly the histogram that recorded
// both sets of values: the buckets line up because the configuration is
// the same.
func TestHistogramMergeDecodedIsExact(t *testing.T) {
	a, b, both := New(), New(), New()
	for _, d := range randomDurations(2, 3000) {
		a.Record(d)
		both.Record(d)
	}
	for _, d := range randomDurations(3, 7000) {
		b.Record(d)
		both.Record(d)
	}
	merged := New()
	for _, h := range []*Histogram{a, b} {
		s, err := h.Encode()
		if err != nil {
			t.Fatal(err)
		}
		d, err := Decode(s)
		if err != nil {
			t.Fatal(err)
		}
		merged.Merge(d)
	}
	if !merged.h.Equals(both.h) {
		t.Fatal("merge of the decoded parts differs from one histogram fed both sets")
	}
	ms, _ := merged.Encode()
	bs, _ := both.Encode()
	if ms != bs {
		t.Fatal("encodings differ")
	}
}

func TestDecodeRefusesOtherConfig(t *testing.T) {
	other := hdr.New(1, 3_600_000_000, 2)
	other.RecordValue(1000)
	b, err := other.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Decode(string(b))
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "2 significant figures") {
		t.Fatalf("err %v, want ErrConfig naming the figures", err)
	}
}

func TestDecodeRefusesJunk(t *testing.T) {
	good, _ := New().Encode()
	for _, s := range []string{"", "HISTFAAA", "not base64!", "AAAAAAAAAAAAAAAA", good[:len(good)/2], strings.Repeat("A", maxEncodedHistogram+4)} {
		if _, err := Decode(s); err == nil {
			t.Errorf("%.20q...: no error", s)
		}
	}
}

func FuzzDecode(f *testing.F) {
	h := New()
	h.Record(time.Millisecond)
	s, _ := h.Encode()
	f.Add(s)
	f.Add("HISTFAAAAA")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Decode(s)
		if err == nil {
			d.Summary()
		}
	})
}
