// Package units holds the unit types httpvs uses on its flags, URLs and
// reports: byte sizes with a parser and a printer, and throughput.
//
// It is pure: no I/O, no globals that change.
package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Bytes is a size in bytes.
type Bytes int64

// Decimal and binary multiples of Bytes.
const (
	KB Bytes = 1000
	MB Bytes = 1000 * KB
	GB Bytes = 1000 * MB
	TB Bytes = 1000 * GB

	KiB Bytes = 1 << 10
	MiB Bytes = 1 << 20
	GiB Bytes = 1 << 30
	TiB Bytes = 1 << 40
)

// ErrSize is wrapped by every error ParseBytes returns.
var ErrSize = errors.New("invalid size")

// sizeGrammar is the one-line description of what ParseBytes accepts, used
// in its error messages.
const sizeGrammar = "want an integer with an optional suffix k, m, g, t (powers of 1000, optional B) or Ki, Mi, Gi, Ti (powers of 1024), e.g. 10g, 100MB, 4Ki, 10000000000"

var suffixes = []struct {
	name string
	mult Bytes
}{
	// Longest first so that "kib" is not read as "k" followed by "ib".
	{"kib", KiB}, {"mib", MiB}, {"gib", GiB}, {"tib", TiB},
	{"ki", KiB}, {"mi", MiB}, {"gi", GiB}, {"ti", TiB},
	{"kb", KB}, {"mb", MB}, {"gb", GB}, {"tb", TB},
	{"k", KB}, {"m", MB}, {"g", GB}, {"t", TB},
	{"b", 1},
}

// ParseBytes reads a size: a non-negative decimal integer with an optional,
// case-insensitive suffix: k, m, g, t for powers of 1000 (optionally
// followed by B: 10GB), Ki, Mi, Gi, Ti for powers of 1024 (optionally
// followed by B: 4KiB), or B alone. "10000000000", "10g", "10G", "100MB",
// "64Ki" are all valid. Fractions, signs and spaces are not.
func ParseBytes(s string) (Bytes, error) {
	if s == "" {
		return 0, fmt.Errorf("%w: empty; %s", ErrSize, sizeGrammar)
	}
	lower := strings.ToLower(s)
	digits, mult := lower, Bytes(1)
	for _, suf := range suffixes {
		if strings.HasSuffix(lower, suf.name) {
			digits, mult = lower[:len(lower)-len(suf.name)], suf.mult
			break
		}
	}
	if digits == "" {
		return 0, fmt.Errorf("%w %q: no number; %s", ErrSize, s, sizeGrammar)
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w %q: %s", ErrSize, s, sizeGrammar)
		}
	}
	n, err := strconv.ParseUint(digits, 10, 63)
	if err != nil || n > uint64(math.MaxInt64/int64(mult)) {
		return 0, fmt.Errorf("%w %q: too large (the limit is %d bytes)", ErrSize, s, int64(math.MaxInt64))
	}
	return Bytes(n) * mult, nil
}

// String prints b exactly and briefly: with the largest binary or decimal
// suffix that divides it (64Ki, 10G), otherwise as a plain integer. The
// result parses back to b with ParseBytes.
func (b Bytes) String() string {
	if b < 0 {
		return strconv.FormatInt(int64(b), 10)
	}
	for _, u := range []struct {
		name string
		mult Bytes
	}{{"Ti", TiB}, {"T", TB}, {"Gi", GiB}, {"G", GB}, {"Mi", MiB}, {"M", MB}, {"Ki", KiB}, {"K", KB}} {
		if b >= u.mult && b%u.mult == 0 {
			return strconv.FormatInt(int64(b/u.mult), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(b), 10)
}

// Human prints b rounded for people, in binary units: "1.5 GiB", "812 B".
func (b Bytes) Human() string {
	f := float64(b)
	for _, u := range []struct {
		name string
		mult float64
	}{{"TiB", float64(TiB)}, {"GiB", float64(GiB)}, {"MiB", float64(MiB)}, {"KiB", float64(KiB)}} {
		if math.Abs(f) >= u.mult {
			return strconv.FormatFloat(f/u.mult, 'f', 1, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(int64(b), 10) + " B"
}

// Set parses s into b; with String it makes *Bytes a flag.Value.
func (b *Bytes) Set(s string) error {
	v, err := ParseBytes(s)
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// BitsPerSecond is a throughput in bits per second.
type BitsPerSecond float64

// Rate returns the throughput of moving n bytes in seconds; zero when
// seconds is not positive.
func Rate(n Bytes, seconds float64) BitsPerSecond {
	if seconds <= 0 {
		return 0
	}
	return BitsPerSecond(float64(n) * 8 / seconds)
}

// String prints r in decimal units, as network tools do: "9.6 Gbit/s".
func (r BitsPerSecond) String() string {
	f := float64(r)
	for _, u := range []struct {
		name string
		mult float64
	}{{"Tbit/s", 1e12}, {"Gbit/s", 1e9}, {"Mbit/s", 1e6}, {"kbit/s", 1e3}} {
		if f >= u.mult {
			return strconv.FormatFloat(f/u.mult, 'f', 2, 64) + " " + u.name
		}
	}
	return strconv.FormatFloat(f, 'f', 0, 64) + " bit/s"
}

// Human prints r as httpvs prints every throughput: decimal bytes per
// second, with bits per second beside, "1.23 GB/s (9.84 Gbit/s)". Both are
// powers of 1000 (1 GB/s = 10^9 bytes/s = 8 Gbit/s), as network tools
// and storage vendors count; sizes typed by users may still be binary.
func (r BitsPerSecond) Human() string {
	f := float64(r) / 8
	for _, u := range []struct {
		name string
		mult float64
	}{{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"kB/s", 1e3}} {
		if f >= u.mult {
			return strconv.FormatFloat(f/u.mult, 'f', 2, 64) + " " + u.name + " (" + r.String() + ")"
		}
	}
	return strconv.FormatFloat(f, 'f', 0, 64) + " B/s (" + r.String() + ")"
}
