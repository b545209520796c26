package runfiles

import "strings"

// ProfileName is the stem of the profile files run --profile writes for
// the cell of scenario over protocol, SCENARIO_PROTOCOL, made safe for
// shells and file systems: a variant's ':' becomes '+'
// ("download+tuned_h2"), and any character other than letters, digits,
// '.', '-', '+' and '_' (a '/' or a space in a request's name) '_'.
func ProfileName(scenario, protocol string) string {
	return SafeFileName(scenario + "_" + protocol)
}

// ProfileFile is the profile file run --profile writes for the cell of
// scenario over protocol, one side ("client", "server") and kind ("cpu",
// "heap"): "download+tuned_h2.client.cpu.pprof".
func ProfileFile(scenario, protocol, side, kind string) string {
	return ProfileName(scenario, protocol) + "." + side + "." + kind + ".pprof"
}

// SafeFileName is name with ':' as '+' and any character other than
// letters, digits, '.', '-', '+' and '_' as '_'.
func SafeFileName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ':':
			return '+'
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '+', r == '_':
			return r
		}
		return '_'
	}, name)
}
