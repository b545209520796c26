package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// causeTest is R4's test of Zhang et al.'s cause on loopback, where no
// emulator can fall behind and h3's own speed, not a link, sets its
// rate (the regime of their fast links): the receiver's cost varied by
// its read size, and the sender's by GSO, each against h3 as shipped.
type causeTest struct {
	gap      results.Interval // h3/h2, both as shipped
	receiver results.Interval // h3 with cheaper reads over h3 as shipped (the claim: above 1)
	sender   results.Interval // h3 from a server without GSO over h3 as shipped
	size     int64
	bigRead  units.Bytes
}

// The cause test's columns.
const (
	colH2      = "h2"
	colH3      = "h3"
	colH3Reads = "h3, large reads"
	colH3NoGSO = "h3, server GSO off"
)

// receiverTest measures the four columns in paired rounds, each a
// download of size bytes from a server in this process.
func receiverTest(ctx context.Context, n int, size int64) (causeTest, error) {
	ct := causeTest{size: size, bigRead: 256 * units.KiB}
	plain, err := newTLSServer()
	if err != nil {
		return ct, err
	}
	defer plain.Close()
	old, had := os.LookupEnv("QUIC_GO_DISABLE_GSO")
	os.Setenv("QUIC_GO_DISABLE_GSO", "true") // quic-go reads it as the listener starts
	noGSO, err := newTLSServer()
	if had {
		os.Setenv("QUIC_GO_DISABLE_GSO", old)
	} else {
		os.Unsetenv("QUIC_GO_DISABLE_GSO")
	}
	if err != nil {
		return ct, err
	}
	defer noGSO.Close()
	type arm struct {
		c   *transport.Client
		url string
	}
	arms := map[string]arm{}
	for col, a := range map[string]struct {
		ts   *transport.Server
		pr   transport.Protocol
		read units.Bytes
	}{colH2: {plain, transport.H2, 0}, colH3: {plain, transport.H3, 0}, colH3Reads: {plain, transport.H3, ct.bigRead}, colH3NoGSO: {noGSO, transport.H3, 0}} {
		c, err := transport.NewClient(transport.ClientOptions{Protocol: a.pr, RootCAs: transport.CertPool(a.ts.Cert()), Config: config.Client{ReadSize: a.read}})
		if err != nil {
			return ct, err
		}
		defer c.Close()
		arms[col] = arm{c, fmt.Sprintf("%s/%d", a.ts.URL(a.pr), size)}
	}
	rs, err := measureRounds(n, []string{colH2, colH3, colH3Reads, colH3NoGSO}, true, func(col string) (float64, error) {
		return download(ctx, arms[col].c, arms[col].url, size)
	})
	if err != nil {
		return ct, err
	}
	ct.gap, ct.receiver, ct.sender = rs.ratio(colH3, colH2, false), rs.ratio(colH3Reads, colH3, false), rs.ratio(colH3NoGSO, colH3, false)
	return ct, nil
}

func newTLSServer() (*transport.Server, error) {
	return transport.NewServer(transport.ServerOptions{Handler: server.New(server.Options{}).Handler(), TLSListen: "127.0.0.1:0"})
}

// download is one GET's body rate in bytes per second, read in the
// client's read size (io.Discard's ReadFrom would read 8 KiB whatever
// the buffer).
func download(ctx context.Context, c *transport.Client, url string, size int64) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	buf := make([]byte, c.ReadSize())
	var total int64
	for {
		k, err := resp.Body.Read(buf)
		total += int64(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if total != size {
		return 0, fmt.Errorf("read %d of %d bytes", total, size)
	}
	return float64(total) / time.Since(start).Seconds(), nil
}

// causeRow is R4 on Zhang et al.'s cause: cheaper receiver reads must
// raise h3's rate (the interval wholly above 1) for it to agree.
func causeRow(ct causeTest, setup string) Row {
	r := Row{Source: srcZhang, Claim: "the cause is the receiver's processing (many packets, user-space ACKs)", Rule: "R4",
		Setup: setup + fmt.Sprintf("; on loopback (no emulator to fall behind; h3's own speed sets its rate, the fast-link regime), %s downloads from a server in this process, in paired rounds: h3 as shipped (%s reads) against h3 with %s reads (a cheaper receiver) and against a server with GSO off (a costlier sender)",
			sizeText(ct.size), config.Client{}.Effective().ReadSize.Human(), ct.bigRead.Human()),
		Figure: fmt.Sprintf("h3/h2 %s; cheaper receiver: h3 %s; costlier sender: h3 %s", ivText(ct.gap), ivText(ct.receiver), ivText(ct.sender))}
	switch {
	case ct.receiver.Pairs < 2:
		r.Verdict, r.Note = notTested, "no interval"
	case ct.receiver.Low > 1 && ct.sender.High < 1:
		r.Verdict, r.Note = notTested, "a cheaper receiver raised h3's rate, but a costlier sender lowered it too: the two ends share this process's cores, so the test cannot single out the receiver"
	case ct.receiver.Low > 1:
		r.Verdict = agrees
	case ct.receiver.High < 1:
		r.Verdict, r.Note = disagrees, "a cheaper receiver lowered h3's rate, against the claim's prediction"
	case ct.receiver.Low >= 1/notMoved && ct.receiver.High <= notMoved:
		r.Verdict, r.Note = disagrees, fmt.Sprintf("a cheaper receiver left h3's rate within ±%.0f%%: not moved as the claim predicts", (notMoved-1)*100)
	default:
		r.Verdict, r.Note = notTested, "the cheaper receiver's interval holds 1 and is wider than ±10%: this run cannot tell whether it moved h3"
	}
	r.Note = joinNote(r.Note, fmt.Sprintf("the sender's cost, varied as a control: %s", senderWord(ct.sender)))
	return r
}

// notMoved is R4's band for "not moved": an interval wholly within
// [1/1.1, 1.1].
const notMoved = 1.1

func senderWord(iv results.Interval) string {
	switch {
	case iv.Pairs < 2:
		return "no interval"
	case iv.High < 1:
		return "GSO off lowered h3's rate (the sender's cost also bears on it)"
	case iv.Low > 1:
		return "GSO off raised h3's rate"
	}
	return "GSO off did not move h3's rate (its interval holds 1)"
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
