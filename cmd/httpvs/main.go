// Command httpvs measures HTTP/1.1, HTTP/2 and HTTP/3 side by side: it
// serves, downloads and uploads over h1, h2c, h1-tls, h2 and h3. Run
// `httpvs help` for its subcommands.
package main

import (
	"os"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli"
)

func main() {
	if experiment.ServeChild() { // run's child server is this program
		return
	}
	ctx, stop := cli.SignalContext()
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
