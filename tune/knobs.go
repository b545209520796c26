package tune

import (
	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// KnobSet returns the best settings found as a knob set named name, which
// httpvs run starts from (matrix.WriteKnobFile, run --knobs FILE). One
// client serves every transport, so a knob two transports both tuned
// (the read size, the server's write size) takes the value of the first
// transport in the report whose best beat Go's defaults; HTTP/2 knobs come
// from the first HTTP/2 transport, QUIC knobs from h3. A transport whose
// defaults were best adds nothing: Go's defaults stay. Sizes are bytes.
func (r *Report) KnobSet(name string) matrix.KnobSet {
	set := matrix.KnobSet{Name: name}
	have := map[string]bool{}
	add := func(field string, v units.Bytes) {
		if v > 0 && !have[field] {
			have[field] = true
			set.Knobs = append(set.Knobs, matrix.Knob{Field: field, Value: v.String()})
		}
	}
	for _, res := range r.Results {
		if res.DefaultsBest {
			continue
		}
		p, err := transport.Parse(res.Protocol)
		if err != nil {
			continue
		}
		b := res.Best
		add("Client.ReadSize", b.ReadSize)
		add("Server.WriteSize", b.WriteSize)
		switch {
		case p.Version() == 2:
			add("Client.HTTP2.MaxReadFrameSize", b.MaxReadFrameSize)
			add("Client.HTTP2.MaxReceiveBufferPerStream", b.StreamWindow)
		case p == transport.H3:
			add("Client.QUIC.MaxStreamReceiveWindow", b.QUICStreamWindow)
			add("Client.QUIC.MaxConnectionReceiveWindow", b.QUICConnWindow)
		}
	}
	return set
}
