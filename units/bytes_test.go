package units

import (
	"errors"
	"testing"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want Bytes
	}{
		{"0", 0},
		{"1", 1},
		{"10000000000", 10_000_000_000},
		{"10g", 10 * GB},
		{"10G", 10 * GB},
		{"10GB", 10 * GB},
		{"10gb", 10 * GB},
		{"100MB", 100 * MB},
		{"1k", 1000},
		{"1kb", 1000},
		{"1t", TB},
		{"64Ki", 64 * KiB},
		{"64KiB", 64 * KiB},
		{"64kib", 64 * KiB},
		{"4Mi", 4 * MiB},
		{"1Gi", GiB},
		{"2Ti", 2 * TiB},
		{"512B", 512},
		{"512b", 512},
		{"9223372036854775807", 9223372036854775807},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseBytes(tt.in)
			if err != nil {
				t.Fatalf("ParseBytes(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("ParseBytes(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseBytesRejects(t *testing.T) {
	for _, in := range []string{
		"", "-1", "+1", "1.5g", " 1", "1 ", "g", "KiB", "B", "10x", "10ig", "0x10",
		"1e9", "9223372036854775808", "10000000000000t", "9000000000Gi", "１",
	} {
		t.Run(in, func(t *testing.T) {
			got, err := ParseBytes(in)
			if err == nil {
				t.Fatalf("ParseBytes(%q) = %d, want an error", in, got)
			}
			if !errors.Is(err, ErrSize) {
				t.Fatalf("ParseBytes(%q) error %v does not wrap ErrSize", in, err)
			}
		})
	}
}

func TestBytesStringRoundTrip(t *testing.T) {
	tests := []struct {
		in   Bytes
		want string
	}{
		{0, "0"},
		{1, "1"},
		{1000, "1K"},
		{1024, "1Ki"},
		{10 * GB, "10G"},
		{256 * KiB, "256Ki"},
		{1500, "1500"},
		{TiB, "1Ti"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("Bytes(%d).String() = %q, want %q", int64(tt.in), got, tt.want)
		}
		back, err := ParseBytes(tt.in.String())
		if err != nil || back != tt.in {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tt.in.String(), back, err, tt.in)
		}
	}
}

func TestHumanAndRate(t *testing.T) {
	if got := (3 * GiB / 2).Human(); got != "1.5 GiB" {
		t.Errorf("Human = %q", got)
	}
	if got := Bytes(812).Human(); got != "812 B" {
		t.Errorf("Human = %q", got)
	}
	r := Rate(10*GB, 8.313647415)
	if got := r.String(); got != "9.62 Gbit/s" {
		t.Errorf("Rate string = %q", got)
	}
	if Rate(1, 0) != 0 {
		t.Error("Rate with zero seconds is not zero")
	}
}

func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"10g", "10000000000", "64KiB", "1.5g", "", "9223372036854775807", "1t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBytes(s)
		if err != nil {
			if !errors.Is(err, ErrSize) {
				t.Fatalf("error %v does not wrap ErrSize", err)
			}
			return
		}
		if b < 0 {
			t.Fatalf("ParseBytes(%q) = %d, negative", s, b)
		}
		back, err := ParseBytes(b.String())
		if err != nil || back != b {
			t.Fatalf("round trip of %q: %d -> %q -> %d, %v", s, b, b.String(), back, err)
		}
	})
}

func TestBitsPerSecondHuman(t *testing.T) {
	for _, tt := range []struct {
		bps  BitsPerSecond
		want string
	}{
		{9.84e9, "1.23 GB/s (9.84 Gbit/s)"},
		{8e6, "1.00 MB/s (8.00 Mbit/s)"},
		{1.6e9, "200.00 MB/s (1.60 Gbit/s)"},
		{80, "10 B/s (80 bit/s)"},
		{0, "0 B/s (0 bit/s)"},
	} {
		if got := tt.bps.Human(); got != tt.want {
			t.Errorf("BitsPerSecond(%g).Human() = %q, want %q", float64(tt.bps), got, tt.want)
		}
	}
}
