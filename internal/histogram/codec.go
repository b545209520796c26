package histogram

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// maxEncodedHistogram is the longest encoded histogram Decode
// reads, in bytes of base64 text. Histograms of this package's range encode
// to a few KiB (at most about 300 KiB with every bucket set).
const maxEncodedHistogram = 1 << 20

// ErrConfig is wrapped by Decode's error for a histogram
// recorded with another range or precision than this package's: its
// buckets would not line up, and merges would be lossy.
var ErrConfig = errors.New("histogram has another bucket configuration")

// Encode returns h in HdrHistogram's portable V2 compressed form, base64
// ("HISTFAAA..."), which HdrHistogram reads in Java, C, Rust, Python and
// others. Values are microseconds, 1 µs to 10 minutes, 3 significant
// figures. Clamped is not carried: clamped values are in the encoding as
// 10 minutes.
func (h *Histogram) Encode() (string, error) {
	b, err := h.h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return string(b), nil
}

// Decode reads a histogram that Encode wrote. It refuses, with an
// error wrapping ErrConfig, one recorded with another range or
// precision (lowest 1, highest 600,000,000 µs, 3 significant figures), and
// refuses text longer than maxEncodedHistogram before decoding it. The
// result's Clamped is 0.
func Decode(s string) (*Histogram, error) {
	if len(s) > maxEncodedHistogram {
		return nil, fmt.Errorf("decode histogram: %d bytes, more than the %d this reads", len(s), maxEncodedHistogram)
	}
	// Check the bucket configuration in the header before hdrhistogram-go
	// allocates the counts it describes.
	if err := checkHistogramHeader(s); err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	h, err := hdr.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	if err := checkConfig(h.LowestTrackableValue(), h.HighestTrackableValue(), h.SignificantFigures()); err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return &Histogram{h: h}, nil
}

// V2 compressed layout: a cookie and a length (4 bytes each, big-endian),
// then zlib data whose first 40 bytes are the header: cookie, payload
// length, normalizing offset, significant figures (int32 each), lowest and
// highest trackable values (int64 each) and a conversion ratio (float64).
const (
	v2OuterHeader  = 8
	v2InnerHeader  = 40
	v2CookieMask   = ^int32(0xf0)
	v2SigFigsAt    = 12
	v2LowestAt     = 16
	v2HighestAt    = 24
	v2CompressedID = hdr.V2CompressedEncodingCookieBase
)

// checkHistogramHeader reads the bucket configuration from an encoded
// histogram's header and checks it.
func checkHistogramHeader(s string) error {
	// Only the first bytes are needed: 8 outer, then the zlib stream
	// holding the 40-byte header (base64 takes 4 characters per 3 bytes).
	prefix := s[:min(len(s), 4*1024)]
	prefix = prefix[:len(prefix)/4*4]
	raw, err := base64.StdEncoding.DecodeString(prefix)
	if err != nil {
		return fmt.Errorf("not base64: %w", err)
	}
	if len(raw) < v2OuterHeader {
		return fmt.Errorf("%d bytes, too short for a histogram", len(raw))
	}
	if cookie := int32(binary.BigEndian.Uint32(raw)) & v2CookieMask; cookie != v2CompressedID {
		return fmt.Errorf("not an HdrHistogram V2 compressed histogram (cookie %#x)", uint32(cookie))
	}
	z, err := zlib.NewReader(bytes.NewReader(raw[v2OuterHeader:]))
	if err != nil {
		return fmt.Errorf("histogram body: %w", err)
	}
	defer z.Close()
	head := make([]byte, v2InnerHeader)
	if _, err := io.ReadFull(z, head); err != nil {
		return fmt.Errorf("histogram header: %w", err)
	}
	sig := int64(int32(binary.BigEndian.Uint32(head[v2SigFigsAt:])))
	lowest := int64(binary.BigEndian.Uint64(head[v2LowestAt:]))
	highest := int64(binary.BigEndian.Uint64(head[v2HighestAt:]))
	return checkConfig(lowest, highest, sig)
}

// checkConfig compares a bucket configuration with this package's.
func checkConfig(lowest, highest, sigFigs int64) error {
	if lowest != histLowestMicros || highest != histHighestMicros || sigFigs != histSigFigs {
		return fmt.Errorf("%w: lowest %d, highest %d, %d significant figures; want %d, %d, %d (microseconds)",
			ErrConfig, lowest, highest, sigFigs, histLowestMicros, histHighestMicros, histSigFigs)
	}
	return nil
}
