package dial

// SharesOpen is how many shared UDP sockets SharedQUIC holds open.
func SharesOpen() int {
	sharesMu.Lock()
	defer sharesMu.Unlock()
	return len(shares)
}
