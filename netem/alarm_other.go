//go:build !linux

package netem

import "time"

// alarmLag is how long after its Go timer's time the ferry's alarm goes
// off.
const alarmLag = 0

// alarm does nothing: the ferry's Go timers keep their own time.
type alarm struct{}

func newAlarm() *alarm { return &alarm{} }

func (*alarm) set(time.Duration) {}

func (*alarm) close() {}
