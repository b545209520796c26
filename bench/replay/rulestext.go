package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// rulesName is the rules' version as the document names it; the hash
// of rulesText and the constants (rulesVersion) is what a record carries.
const rulesName = "v3"

// rulesText is the rules as the document states them, fixed before a
// run: a change to it or to the constants it names changes the hash
// every record carries.
const rulesText = `## How a claim is judged (fixed before the results)

- **R1, a published ratio** (throughput, or the inverse of ns/op, over the baseline's; above 1 is
  faster): it **agrees** when it lies inside httpvs's 95% interval (Student's t on the logarithms of
  the rounds' paired ratios), **disagrees** outside it. Without an interval (fewer than two rounds),
  or when the interval spans more than a factor of 3 (high over low: it would agree with almost
  anything), it is **not comparable**. The interval widened on each side by the run's noise floor for
  that measurement (the A/A interval's largest distance from 1: the baseline measured twice in the
  same rounds) is shown in its own column, "within the machine's noise": it never decides the word.
- **R2, a direction** (faster or slower, more or fewer, present or absent): **agrees** when httpvs's
  interval (or count) lies wholly on the claimed side, **disagrees** when wholly on the other,
  **not comparable** when the interval holds 1 (undecided here) or the figure was not measured.
- **R3, a count that barely varies between rounds** (allocations, bytes allocated, reads): the ratio
  to the same baseline **agrees** within a factor of 1.5 of the published ratio (Go, quic-go and
  grpc-go versions differ from the publications', and allocate differently), else **disagrees**.
- **R4, a claim of cause**: it **agrees** only when a setting that changes that cause, varied in the
  same run on loopback or at links where the emulator kept up (no packet left it more than 1 ms late),
  moves the figure the way the claim predicts (the interval of the figure's change wholly on that side
  of 1), and a control setting on the other side does not; **disagrees** when it moves it the other
  way, or leaves it within ±10% (the interval wholly inside [0.91, 1.1]); otherwise (not varied, too
  wide to tell, or the control moved it too) it is **not tested**, whatever the figures beside it read.
- **A disagreement** ends in "cause: X" (a setting varied one at a time, each with its interval,
  that moves the figure to the published one when set as there: its interval apart from the row's,
  holding the published figure, no wider than a factor of 3) or "open: varied A, B, C; none moved
  it".
- **A link where the emulator fell behind** (packets left it more than 1 ms late) ran slower than
  set: its rows are **not comparable**.

Every row also says how its setup differs from the publication's. "Not comparable" and "not
tested" are not disagreements: they say this run could not decide.
`

// rulesVersion is the rules' name and a hash of their text and
// constants, as a record carries it.
func rulesVersion() string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s\nmaxSpan=%v countFactor=%v notMoved=%v", rulesText, maxSpan, countFactor, notMoved))
	return rulesName + ", sha256:" + hex.EncodeToString(h[:6])
}

// ruleChanges are the rules' changes, each with the commit that made it
// and whether it came after a result it would flip: fixed text, the
// history the document owes its reader.
const ruleChanges = `Rule changes, from git log -- bench/replay:

- 031e03c: R1 (widened by the noise floor), R2 and R3 first stated.
- a0e2fa6: R1's "wider than a factor of 3 is not comparable" added **after** a run on a loaded machine
  (load average about 30) whose two-round A/A floor widened intervals to [0.00, 3426]; that run's record
  was not kept. It turns rows that agreed with anything into "not comparable": changed after the
  results it flips.
- d72c92f: "a link where the emulator fell behind is not comparable" added **after**
  replay-2026-11-27T0845Z, whose crossover row (32 there) read "disagrees" on such links: changed
  after a result it flips.
- v2 (fe5323e, ee72c4f): R1 decided on the unwidened 95% interval, the widening its own column; R4 for
  claims of cause; disagreements end in "cause" or "open". Stated before its run
  (replay-2026-12-06T1957Z); it flips rows of earlier records that agreed only once widened.
- v3 (this document's rules): a cause must lie apart from the row's interval and span at most a
  factor of 3; R4's "not at all" means within ±10%, and an interval wider than that holding 1 is
  "not tested". Added **after** replay-2026-12-06T1957Z, where they flip rows 1, 17 and 23 from
  "cause" to "open" (their causes' intervals spanned factors of 3.1 to 8.7) and row 30
  from "disagrees" to "not tested" (its interval [0.44, 2.64]).
`

// rulesHistory is the changes, then each replay record under dir with
// the rules it was made under: its rules line, or, for a record from
// before rules were versioned, its commit's.
func rulesHistory(dir string) string {
	var b strings.Builder
	b.WriteString(ruleChanges + "\nRecords and the rules they were made under (this run's: " + rulesVersion() + "):\n\n")
	names, _ := filepath.Glob(filepath.Join(dir, "replay-*.md"))
	slices.Sort(names)
	n := 0
	for _, name := range names {
		if strings.HasSuffix(name, "-quick.md") {
			continue
		}
		commit, rules := recordHead(name)
		if rules == "" {
			rules = "before rules were versioned: the rules of commit " + commit
		}
		fmt.Fprintf(&b, "- %s: %s\n", filepath.Base(name), rules)
		n++
	}
	if n == 0 {
		b.WriteString("- none before this run\n")
	}
	return b.String()
}

// recordHead reads a record's commit and rules lines.
func recordHead(name string) (commit, rules string) {
	f, err := os.Open(name)
	if err != nil {
		return "unknown", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; i < 20 && sc.Scan(); i++ {
		if v, ok := strings.CutPrefix(sc.Text(), "- commit: "); ok {
			commit = v
		}
		if v, ok := strings.CutPrefix(sc.Text(), "- rules: "); ok {
			rules = v
		}
	}
	return or(commit), rules
}
