package cli

import (
	"testing"
)

// TestErrorsTeach: a value a flag cannot take is one line naming the
// flag as typed and a value it takes; a command mistyped gets the one
// meant; each exits 2 and prints nothing on stdout.
func TestErrorsTeach(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--duration", "10"}, "httpvs run: --duration 10: want a duration with its unit (ns, us, ms, s, m, h), e.g. --duration 10s (see httpvs run -h)\n"},
		{[]string{"run", "--duration"}, "httpvs run: --duration needs a value, e.g. --duration 50ms (see httpvs run -h)\n"},
		{[]string{"run", "--repeat", "2.5"}, "httpvs run: --repeat 2.5: want a whole number, e.g. --repeat 4 (see httpvs run -h)\n"},
		{[]string{"run", "--quick=maybe"}, "httpvs run: --quick maybe: want true or false, e.g. --quick=true, or --quick alone (see httpvs run -h)\n"},
		{[]string{"load", "http://127.0.0.1:1/small", "-c", "many"}, "httpvs load: -c many: want a whole number, e.g. -c 10 (see httpvs load -h)\n"},
		{[]string{"load", "http://127.0.0.1:1/small", "--conns", "many"}, "httpvs load: --conns many: want a whole number, e.g. --conns 10 (see httpvs load -h)\n"},
		{[]string{"get", "http://127.0.0.1:1/1", "--read-size", "a lot"}, "httpvs get: --read-size \"a lot\": want an integer with an optional suffix k, m, g, t (powers of 1000, optional B) or Ki, Mi, Gi, Ti (powers of 1024), e.g. 10g, 100MB, 4Ki, 10000000000 (see httpvs get -h)\n"},
		{[]string{"run", "--request"}, "httpvs run: --request needs a value, e.g. --request 'GET /api/items?id=7' (see httpvs run -h)\n"},
		{[]string{"run", "--target"}, "httpvs run: --target needs a value, e.g. --target URL (see httpvs run -h)\n"},
		{[]string{"load", "http://127.0.0.1:1/small", "-H"}, "httpvs load: -H needs a value, e.g. -H \"Name: value\" (see httpvs load -h)\n"},
		{[]string{"runn"}, "httpvs: unknown command \"runn\": did you mean run? (see httpvs help)\n"},
		{[]string{"tun", "--budget", "1s"}, "httpvs: unknown command \"tun\": did you mean tune? (see httpvs help)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			if code != exitUsage || stdout != "" || stderr != tt.want {
				t.Errorf("exit %d stdout %q stderr\n%q\nwant 2 and\n%q", code, stdout, stderr, tt.want)
			}
		})
	}
}
