package apicheck

import (
	"strings"
)

// snapshotHeader opens api/httpvs.txt.
const snapshotHeader = `# The exported API of httpvs's public packages (docs/layout.md lists them),
# one declaration a line, as internal/apicheck renders it from the export
# data. TestAPISnapshot fails when the code and this file differ; after a
# change to the public surface that is meant, regenerate it with
#   go test ./internal/apicheck -run TestAPISnapshot -update
# and commit it with the change.
`

// Snapshot renders listings as api/httpvs.txt: a header, then each
// package's path on a "pkg" line followed by its declarations.
func Snapshot(listings []*Listing) string {
	var b strings.Builder
	b.WriteString(snapshotHeader)
	for _, l := range listings {
		b.WriteString("\npkg " + shortPath(l.Path) + "\n")
		for _, line := range l.Lines {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// Diff lists the declarations only in want ("-") and only in got ("+"),
// each under its package, in the order they appear; "" when the two
// hold the same declarations. Comment lines are ignored.
func Diff(want, got string) string {
	w, g := declarations(want), declarations(got)
	var b strings.Builder
	last := ""
	emit := func(sign string, d decl) {
		if d.pkg != last {
			b.WriteString("pkg " + d.pkg + "\n")
			last = d.pkg
		}
		b.WriteString(sign + " " + d.line + "\n")
	}
	for _, d := range w.list {
		if g.count[d]--; g.count[d] < 0 {
			emit("-", d)
		}
	}
	last = ""
	for _, d := range g.list {
		if w.count[d]--; w.count[d] < 0 {
			emit("+", d)
		}
	}
	return b.String()
}

// decl is one declaration line and the package it belongs to.
type decl struct{ pkg, line string }

// declSet is a snapshot's declarations in order, and how many times each
// occurs.
type declSet struct {
	list  []decl
	count map[decl]int
}

// declarations parses a snapshot.
func declarations(s string) declSet {
	set := declSet{count: map[decl]int{}}
	pkg := ""
	for _, line := range strings.Split(s, "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "pkg "):
			pkg = strings.TrimPrefix(line, "pkg ")
		default:
			d := decl{pkg, line}
			set.list = append(set.list, d)
			set.count[d]++
		}
	}
	return set
}
