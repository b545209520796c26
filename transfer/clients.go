package transfer

import (
	"github.com/httpvs/httpvs/transport"
)

// clients opens the plan's clients, one connection each: Conns of them, or
// by default one per transfer over HTTP/1.1 and one in all otherwise.
func (p Plan) clients() ([]*transport.Client, error) {
	clients := make([]*transport.Client, p.connections())
	for i := range clients {
		opts := p.Client
		opts.MaxConnsPerHost = 1
		c, err := transport.NewClient(opts)
		if err != nil {
			closeAll(clients[:i])
			return nil, err
		}
		clients[i] = c
	}
	return clients, nil
}

// closeAll closes the clients opened; nil slots, never opened, are
// skipped.
func closeAll(cs []*transport.Client) {
	for _, c := range cs {
		if c != nil {
			c.Close()
		}
	}
}
