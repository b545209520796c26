package flagset

import (
	"flag"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/units"
)

// flagErrors are the errors package flag words for a value it could not
// take: the flag's name (as typed, without its dashes), the value, and
// what the flag's Set said.
var flagErrors = []*regexp.Regexp{
	regexp.MustCompile(`^invalid value "(?s)(.*)" for flag -(\S+): (.*)$`),
	regexp.MustCompile(`^invalid boolean value "(?s)(.*)" for -(\S+): (.*)$`),
}

// parseError words err, a parse error of package flag, as one line that
// names the flag as typed (--duration) and gives an example of a value
// it takes (--duration 10s).
func (fs *Set) parseError(err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		if f := fs.Lookup(name); f != nil {
			return Usagef("%s needs a value, e.g. %s %s", Dash(name), Dash(name), example(f, ""))
		}
	}
	for _, re := range flagErrors {
		m := re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		value, name, why := m[1], m[2], m[3]
		f := fs.Lookup(name)
		if f == nil {
			break
		}
		return Usagef("%s %s: %s", Dash(name), shown(value), want(f, value, why))
	}
	return Usagef("%v", err)
}

// want says what f takes, with an example, for value, which it refused
// with why: package flag's own words ("parse error") for its kinds, the
// flag's (a size's grammar, a header's form) for the others.
func want(f *flag.Flag, value, why string) string {
	eg := Dash(f.Name) + " " + example(f, value)
	switch kindOf(f) {
	case "duration":
		return "want a duration with its unit (ns, us, ms, s, m, h), e.g. " + eg
	case "int":
		return "want a whole number, e.g. " + eg
	case "float":
		return "want a number, e.g. " + eg
	case "bool":
		return "want true or false, e.g. " + Dash(f.Name) + "=true, or " + Dash(f.Name) + " alone"
	case "size":
		// units' error repeats the value: keep what it wants.
		if _, rest, ok := strings.Cut(why, "\": "); ok {
			why = rest
		}
		return why
	}
	return why
}

// shown is value as a message shows it: quoted when empty or when it
// holds a space or a character that is not printable.
func shown(value string) string {
	if q := strconv.Quote(value); value == "" || q != `"`+value+`"` || strings.ContainsAny(value, " \t") {
		return q
	}
	return value
}

// kindOf is f's kind of value: duration, int, float, bool, size or ""
// for another.
func kindOf(f *flag.Flag) string {
	if _, ok := f.Value.(*units.Bytes); ok {
		return "size"
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case time.Duration:
		return "duration"
	case int, int64, uint, uint64:
		return "int"
	case float64:
		return "float"
	case bool:
		return "bool"
	}
	return ""
}

// example is a value f takes: value given a unit when it is a bare
// number and f a duration ("10" is 10s), else f's default when it is
// not zero, else one of its kind.
func example(f *flag.Flag, value string) string {
	kind := kindOf(f)
	if _, err := strconv.ParseFloat(value, 64); err == nil && kind == "duration" {
		return value + "s"
	}
	if d := f.DefValue; d != "" && d != "0" && d != "0s" && d != "false" {
		return d
	}
	if eg, ok := map[string]string{"duration": "10s", "int": "10", "float": "1.5", "size": "64Ki", "bool": "true"}[kind]; ok {
		return eg
	}
	if eg := usageExample(f.Usage); eg != "" {
		return eg
	}
	if name, _ := flag.UnquoteUsage(f); name != "" && name != "value" && name != "string" {
		if strings.ContainsAny(name, " :") {
			return name // a form to follow: "Name: value"
		}
		return strings.ToUpper(name)
	}
	return "VALUE"
}

// usageExample is the example a flag's usage gives after "e.g. ": a
// quoted one whole, else its first word; "" for none.
func usageExample(usage string) string {
	_, rest, ok := strings.Cut(usage, "e.g. ")
	if !ok || rest == "" {
		return ""
	}
	if q := rest[0]; q == '\'' || q == '"' {
		if end := strings.IndexByte(rest[1:], q); end >= 0 {
			return rest[:end+2]
		}
	}
	if end := strings.IndexAny(rest, " ,;)"); end >= 0 {
		rest = rest[:end]
	}
	return rest
}
