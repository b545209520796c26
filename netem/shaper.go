package netem

import (
	"math/rand/v2"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
)

// verdict is what a direction's model does with one packet.
type verdict uint8

const (
	pass      verdict = iota // delivered at its due time
	lost                     // dropped by the loss model
	queueFull                // dropped by the drop-tail queue
)

// queued is a packet in the queue in front of the rate limit: its size and
// when its serialization ends.
type queued struct {
	done time.Duration
	size int
}

// shaper is the model of one direction: times are offsets from the link's
// start. It is pure (no clock, no I/O) and not safe for concurrent use.
type shaper struct {
	dir    Direction
	loss   lossState
	rng    *rand.Rand
	free   time.Duration // when the serializer finishes the last packet admitted
	last   time.Duration // due time of the last packet admitted
	queue  []queued      // admitted packets still being serialized, oldest first
	head   int
	qBytes int
}

func newShaper(d Direction, seed uint64) *shaper {
	if d.Queue == (Queue{}) {
		d.Queue.Packets = defaults.QueuePackets
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return &shaper{dir: d, rng: rng, loss: lossState{model: d.Loss, rng: rng}}
}

// admit decides the fate of a packet of size bytes that arrives at now, and
// when it is due at the far end if it passes.
func (s *shaper) admit(now time.Duration, size int) (time.Duration, verdict) {
	if s.loss.drop() {
		return 0, lost
	}
	s.drain(now)
	q := s.dir.Queue
	n := len(s.queue) - s.head
	if (q.Packets > 0 && n+1 > q.Packets) || (q.Bytes > 0 && int64(s.qBytes+size) > int64(q.Bytes)) {
		return 0, queueFull
	}
	start := max(s.free, now)
	done := start
	if s.dir.Rate > 0 {
		done += time.Duration(float64(size*8) / float64(s.dir.Rate) * float64(time.Second))
		s.queue = append(s.queue, queued{done: done, size: size})
		s.qBytes += size
	}
	s.free = done
	due := done + s.dir.Delay
	if s.dir.Jitter > 0 {
		due += time.Duration(s.rng.Int64N(int64(s.dir.Jitter) + 1))
	}
	due = max(due, s.last) // jitter never reorders
	s.last = due
	return due, pass
}

// drain forgets the packets whose serialization ended by now.
func (s *shaper) drain(now time.Duration) {
	for s.head < len(s.queue) && s.queue[s.head].done <= now {
		s.qBytes -= s.queue[s.head].size
		s.head++
	}
	if s.head == len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
	} else if s.head > 1024 && s.head > len(s.queue)/2 {
		s.queue = append(s.queue[:0], s.queue[s.head:]...)
		s.head = 0
	}
}
