package target

// ReadPrefixInt reads one of the prefixed integers of HPACK (RFC 7541,
// section 5.1), which QPACK (RFC 9204, section 4.1.1) uses too: the
// header-block scanners of lean's HTTP/2 and HTTP/3 clients share it. It
// reads an integer with an n-bit prefix from the front of b, which
// must not be empty: rest is what follows it; ok is false when b ends
// first or the value does not fit in 56 bits.
func ReadPrefixInt(b []byte, n uint) (rest []byte, v uint64, ok bool) {
	limit := uint64(1)<<n - 1
	if v = uint64(b[0]) & limit; v < limit {
		return b[1:], v, true
	}
	for i, shift := 1, uint(0); i < len(b) && shift < 56; i, shift = i+1, shift+7 {
		v += uint64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return b[i+1:], v, true
		}
	}
	return nil, 0, false
}
