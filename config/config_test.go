package config

import (
	"testing"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/units"
)

func TestConfigValidate(t *testing.T) {
	bad := []Config{
		{Client: Client{HTTP2: HTTP2{MaxReadFrameSize: units.KiB}}},
		{Client: Client{HTTP2: HTTP2{MaxReadFrameSize: 16 * units.MiB}}},
		{Client: Client{HTTP2: HTTP2{MaxReceiveBufferPerConnection: units.KiB}}},
		{Server: Server{HTTP2: HTTP2{MaxReceiveBufferPerStream: 4 * units.GiB}}},
		{Server: Server{HTTP2: HTTP2{MaxConcurrentStreams: -1}}},
		{Client: Client{QUIC: QUIC{MaxStreamReceiveWindow: -1}}},
		{Client: Client{ReadSize: 2 * units.GiB}},
		{Server: Server{WriteSize: -1}},
	}
	for i, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("case %d: %+v accepted", i, c)
		}
	}
	good := Config{Client: Client{HTTP2: HTTP2{MaxReadFrameSize: 16 * units.KiB, MaxReceiveBufferPerConnection: units.GiB}}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	var zero Config
	if err := zero.Validate(); err != nil || zero.Client.Effective().ReadSize != defaults.ReadSize || zero.Server.Effective().WriteSize != defaults.WriteSize {
		t.Fatalf("zero config: %v", err)
	}
	eff := zero.Client.Effective()
	if eff.HTTP2.MaxReadFrameSize != goClientMaxReadFrameSize || defaults.ReadSize != 8*units.KiB || eff.ReadSize != defaults.ReadSize || eff.DialTimeout != defaults.DialTimeout {
		t.Fatalf("effective client config %+v", eff)
	}
	if eff.HTTP2.MaxReceiveBufferPerStream != 0 || eff.QUIC.MaxStreamReceiveWindow != 0 {
		t.Fatalf("Effective filled a field left to Go or quic-go: %+v", eff)
	}
	stock := Client{HTTP2: HTTP2{MaxReadFrameSize: 16 * units.KiB}}.Effective()
	if stock.HTTP2.MaxReadFrameSize != 16*units.KiB {
		t.Fatalf("an explicit frame size was overridden: %v", stock.HTTP2.MaxReadFrameSize)
	}
}
