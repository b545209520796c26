package peers

// Resolve reads a list of peers (ParseList: names, or auto) into the
// peers installed, to measure, and the peers asked for that are not, with
// auto every peer of the catalogue not installed (each Peer's Install
// says how to install it).
func Resolve(list string) (installed, missing []Peer, err error) {
	asked, err := ParseList(list)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range asked {
		if p.Installed() {
			installed = append(installed, p)
		} else {
			missing = append(missing, p)
		}
	}
	if list == "auto" {
		_, more := Discover()
		missing = append(missing, more...)
	}
	return installed, missing, nil
}
