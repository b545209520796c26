//go:build measured

package server

// measuredBuild says the measured checks run (-tags measured, alone on the
// machine, as .ci/run's last step and bench/hostile.sh run them): the
// hostile tests then hold the good client's rate and latency beside an
// attack to its own alone.
const measuredBuild = true
