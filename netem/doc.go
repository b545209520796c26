// Package netem emulates network links for httpvs: a link spec parser with
// named presets, a packet-level link model (delay, jitter, rate, drop-tail
// queue, uniform and Gilbert-Elliott loss), a userspace link that ferries
// packets between two TUN devices in two network namespaces it creates (the
// design of mahimahi's packet shells), or a veth pair with the kernel's
// netem qdisc. What a link actually delivers is measured by the run that
// uses it (its calibration, results.NetCalibration).
//
// The library never prints and never exits: it returns values and typed
// errors (*SpecError for a bad spec, *SetupError for a missing privilege or
// kernel feature).
//
// # The TUN link (Linux, root)
//
// NewLink creates two network namespaces with unshare(CLONE_NEWNET) on a
// locked OS thread and holds each by an open file descriptor of
// /proc/thread-self/ns/net: they have no name, so `ip netns list` never
// shows them, and no bind mount has to be removed. Each namespace holds one
// TUN device ("hv0", MTU 1500, no offloads: without IFF_VNET_HDR the kernel
// hands the ferry MTU-sized IP packets, so loss is per packet) with an
// address from the RFC 2544 benchmarking range 198.18.0.0/15: the client
// namespace has ClientAddr, the server namespace ServerAddr, both in one
// /30, and no other route, so nothing leaves the two namespaces.
//
// Two ferry goroutines per direction in the calling process read packets
// from one TUN device, pass them through the direction's model and write
// them to the other at their due time. Close stops them and closes the TUN
// and namespace descriptors; the kernel then deletes the TUN devices and,
// once no process is left inside, the namespaces. If the parent process
// dies, the kernel closes the same descriptors, so nothing outlives it
// but processes the caller started inside a namespace (give them
// Pdeathsig: they are started from a thread that lives until Close).
//
// # The netem link (Linux, root, sch_netem)
//
// Where the kernel has the netem qdisc, NewLink can join the same two
// namespaces by a veth pair instead, with a netem qdisc on each end that
// applies that direction's model in the kernel (Backend, the spec's
// backend= key; by default BackendNetem where the kernel has the qdisc, else
// BackendTUN). It runs ip and tc from iproute2 inside the namespaces, turns
// off segmentation offloads so that the qdiscs see MTU-sized TCP packets,
// and reads its counters from the qdiscs. Cleanup is the same: the kernel
// deletes the pair with its namespaces.
//
// Code runs inside a namespace in two ways. Namespace.Run runs a function
// on a fresh OS thread that has joined the namespace; sockets created there
// (net.Dial, net.Listen, net.ListenPacket) stay in that namespace whichever
// goroutine uses them later. Namespace.Start starts a child process from a
// long-lived thread in the namespace, so the child and everything it starts
// live in the namespace.
package netem
