package apicheck

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
)

// Listing is the rendered API of one package and the packages it names.
type Listing struct {
	Path  string
	Lines []string
	// Mentions maps each other package the lines name to one line
	// that names it.
	Mentions map[string]string
}

// Render lists pkg's exported API, one declaration a line, sorted:
// constants with their values, variables, functions, types (exported
// struct fields and interface methods under their type) and the method
// sets of *T, promoted methods included. Packages are named by path,
// the module's own relative to the module.
func Render(pkg *types.Package) *Listing {
	l := &Listing{Path: pkg.Path(), Mentions: map[string]string{}}
	var current string
	qual := func(other *types.Package) string {
		if other == pkg {
			return ""
		}
		if _, seen := l.Mentions[other.Path()]; !seen {
			l.Mentions[other.Path()] = current
		}
		return shortPath(other.Path())
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		l.Lines = append(l.Lines, renderObject(obj, qual, &current)...)
	}
	return l
}

// shortPath names a package of the module relative to the module.
func shortPath(path string) string {
	if rel, ok := strings.CutPrefix(path, Module+"/"); ok {
		return rel
	}
	return path
}

// renderObject renders one package-level object; current is set to each
// line's declared name before the line is rendered, for Mentions.
func renderObject(obj types.Object, qual types.Qualifier, current *string) []string {
	*current = obj.Name()
	switch o := obj.(type) {
	case *types.Const:
		return []string{fmt.Sprintf("const %s %s = %s", o.Name(), types.TypeString(o.Type(), qual), o.Val().ExactString())}
	case *types.Var:
		return []string{fmt.Sprintf("var %s %s", o.Name(), types.TypeString(o.Type(), qual))}
	case *types.Func:
		return []string{"func " + o.Name() + strings.TrimPrefix(types.TypeString(o.Type(), qual), "func")}
	case *types.TypeName:
		return renderType(o, qual, current)
	}
	return []string{fmt.Sprintf("%T %s", obj, obj.Name())}
}

// renderType renders a type declaration, its exported fields or
// interface methods, and its exported methods.
func renderType(tn *types.TypeName, qual types.Qualifier, current *string) []string {
	name := tn.Name()
	if tn.IsAlias() {
		return []string{fmt.Sprintf("type %s = %s", name, types.TypeString(types.Unalias(tn.Type()), qual))}
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return []string{fmt.Sprintf("type %s %s", name, types.TypeString(tn.Type(), qual))}
	}
	head := "type " + name + typeParams(named.TypeParams(), qual)
	var lines []string
	switch u := named.Underlying().(type) {
	case *types.Struct:
		lines = append(lines, head+" struct")
		lines = append(lines, structFields(name, u, qual, current)...)
	case *types.Interface:
		lines = append(lines, head+" interface")
		lines = append(lines, interfaceMethods(name, u, qual, current)...)
	default:
		lines = append(lines, head+" "+types.TypeString(u, qual))
	}
	if _, isIface := named.Underlying().(*types.Interface); !isIface {
		lines = append(lines, methods(named, qual, current)...)
	}
	return lines
}

// typeParams renders a type parameter list, or "" for none.
func typeParams(tps *types.TypeParamList, qual types.Qualifier) string {
	if tps.Len() == 0 {
		return ""
	}
	parts := make([]string, tps.Len())
	for i := range parts {
		tp := tps.At(i)
		parts[i] = tp.Obj().Name() + " " + types.TypeString(tp.Constraint(), qual)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// structFields renders the exported fields of a struct, embedded ones
// marked, and the exported fields promoted through unexported embedded
// structs.
func structFields(owner string, s *types.Struct, qual types.Qualifier, current *string) []string {
	var lines []string
	for f := range s.Fields() {
		*current = owner + "." + f.Name()
		switch {
		case f.Exported() && f.Embedded():
			lines = append(lines, fmt.Sprintf("    %s.%s embedded %s", owner, f.Name(), types.TypeString(f.Type(), qual)))
		case f.Exported():
			lines = append(lines, fmt.Sprintf("    %s.%s %s", owner, f.Name(), types.TypeString(f.Type(), qual)))
		case f.Embedded():
			if inner, ok := derefStruct(f.Type()); ok {
				lines = append(lines, structFields(owner, inner, qual, current)...)
			}
		}
	}
	return lines
}

// derefStruct returns the struct under t or *t.
func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	return s, ok
}

// interfaceMethods renders an interface's methods, embedded ones
// included, and says when it has unexported ones.
func interfaceMethods(owner string, it *types.Interface, qual types.Qualifier, current *string) []string {
	var lines []string
	hidden := false
	for m := range it.Methods() {
		if !m.Exported() {
			hidden = true
			continue
		}
		*current = owner + "." + m.Name()
		lines = append(lines, fmt.Sprintf("    %s.%s%s", owner, m.Name(), strings.TrimPrefix(types.TypeString(m.Type(), qual), "func")))
	}
	sort.Strings(lines)
	if hidden {
		lines = append(lines, "    "+owner+" has unexported methods")
	}
	if it.NumEmbeddeds() > 0 {
		for t := range it.EmbeddedTypes() {
			if _, ok := t.Underlying().(*types.Interface); !ok {
				lines = append(lines, "    "+owner+" constraint "+types.TypeString(t, qual))
			}
		}
	}
	return lines
}

// methods renders the exported methods of *T, promoted ones included.
func methods(named *types.Named, qual types.Qualifier, current *string) []string {
	mset := types.NewMethodSet(types.NewPointer(named))
	var lines []string
	for sel := range mset.Methods() {
		fn := sel.Obj().(*types.Func)
		if !fn.Exported() {
			continue
		}
		sig := fn.Type().(*types.Signature)
		recv := named.Obj().Name()
		if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
			recv = "*" + recv
		}
		*current = named.Obj().Name() + "." + fn.Name()
		lines = append(lines, fmt.Sprintf("method (%s) %s%s", recv, fn.Name(), strings.TrimPrefix(types.TypeString(sig, qual), "func")))
	}
	return lines
}
