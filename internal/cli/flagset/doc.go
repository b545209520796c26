// Package flagset is the one flag grammar every httpvs command follows:
// a flag.FlagSet that reports errors instead of printing or exiting,
// accepts flags anywhere among the arguments (curl-style), spells each
// flag one or more ways (-c, --conns), refuses a zero or negative number
// unless the command allows it, names the flag a library's
// *config.FieldError is about, suggests the nearest flag to a typo, and
// prints help grouped by purpose. It also holds the values several
// commands share: -H headers, --body SIZE|@FILE, the target's -p/-k/
// --cacert and the client's and server's tuning knobs, the certificate
// files --cert, --key and --cacert name (and a certificate's fingerprint,
// as serve's banner prints it), and the nearest name to a typo (a flag's,
// a command's, a link preset's).
//
// It is machinery of internal/cli: it prints only the help a user asked
// for with -h, to the writer the command gives it.
package flagset
