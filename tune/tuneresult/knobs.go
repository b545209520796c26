package tuneresult

import (
	"fmt"
	"io"
	"strings"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// KnobSet returns the best settings found as a knob set named name, which
// httpvs run starts from (knobs.WriteFile, run --knobs FILE). One
// client serves every transport, so a knob two transports both tuned
// (the read size, the server's write size) takes the value of the first
// transport in the report whose best beat Go's defaults; HTTP/2 knobs come
// from the first HTTP/2 transport, QUIC knobs from h3. The set's BestFor
// says which transport each value was best for and what the others did
// best at where they differed. A transport whose defaults were best adds
// nothing: Go's defaults stay. Sizes are bytes.
func (r *Report) KnobSet(name string) results.KnobSet {
	set := results.KnobSet{Name: name}
	chosen := map[string]string{}   // field -> value kept
	from := map[string]string{}     // field -> the transport it came from
	others := map[string][]string{} // field -> "h2: 64Ki" of the others that differ
	var order []string
	add := func(proto, field string, v units.Bytes) {
		if v <= 0 {
			return
		}
		val := v.String()
		if _, ok := chosen[field]; !ok {
			chosen[field], from[field] = val, proto
			order = append(order, field)
			return
		}
		if chosen[field] != val {
			others[field] = append(others[field], proto+": "+val)
		}
	}
	for _, res := range r.Results {
		if res.DefaultsBest {
			continue
		}
		b := res.Best
		add(res.Protocol, "Client.ReadSize", b.ReadSize)
		add(res.Protocol, "Server.WriteSize", b.WriteSize)
		switch {
		case protoname.HTTP2(res.Protocol):
			add(res.Protocol, "Client.HTTP2.MaxReadFrameSize", b.MaxReadFrameSize)
			add(res.Protocol, "Client.HTTP2.MaxReceiveBufferPerStream", b.StreamWindow)
		case res.Protocol == protoname.H3:
			add(res.Protocol, "Client.QUIC.MaxStreamReceiveWindow", b.QUICStreamWindow)
			add(res.Protocol, "Client.QUIC.MaxConnectionReceiveWindow", b.QUICConnWindow)
		}
	}
	for _, field := range order {
		set.Knobs = append(set.Knobs, results.Knob{Field: field, Value: chosen[field]})
		if set.BestFor == nil {
			set.BestFor = map[string]string{}
		}
		set.BestFor[field] = from[field]
		if len(others[field]) > 0 {
			set.BestFor[field] += fmt.Sprintf(" (%s)", strings.Join(others[field], ", "))
		}
	}
	return set
}

// WriteKnobFile writes the best settings found to w as a knob file
// (knobs.WriteFile) of KnobSet(name), its name followed by
// " (partial search)" when the budget or an interrupt cut the search
// short.
func (r *Report) WriteKnobFile(w io.Writer, name string) error {
	set := r.KnobSet(name)
	if r.Partial {
		set.Name += " (partial search)"
	}
	return knobs.WriteFile(w, set)
}
