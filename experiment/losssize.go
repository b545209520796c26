package experiment

import (
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/plan"
)

// minLossEvents is the fewest loss events fitLossEvents sizes a transfer
// for to fit a budget.
const minLossEvents = 10

// fitLossEvents says how the transfers across a lossy link were sized
// for its loss (matrix.LossSizing), and when o.Budget is set and the
// first rounds at Matrix.LossEvents would end past it, says so with the
// time they would take, and sizes them for fewer loss events, as many as
// fit (at least minLossEvents); est is the estimate of what will run.
func (o *Options) fitLossEvents(est plan.Estimate) (plan.Estimate, []string) {
	lines := matrix.LossSizing(o.engine())
	if len(lines) == 0 || o.Budget <= 0 {
		return est, lines
	}
	spent := time.Since(o.Began)
	if spent+est.Time <= o.Budget {
		return est, lines
	}
	want := o.Matrix.LossEvents
	if want == 0 {
		want = defaults.LossEvents
	}
	full := est
	for n := want * 3 / 4; n >= minLossEvents; n = n * 3 / 4 {
		m := o.engine()
		m.LossEvents = n
		e, err := matrix.EstimateRun(m)
		if err != nil {
			break
		}
		o.Matrix.LossEvents, est = n, e
		if spent+e.Time <= o.Budget {
			break
		}
	}
	if o.Matrix.LossEvents == want || o.Matrix.LossEvents == 0 {
		return est, append(lines, fmt.Sprintf("the run cannot see %d loss events per transfer within the budget of %s: that takes about %s", want, o.Budget.Round(time.Second), (spent+full.Time).Round(time.Second)))
	}
	note := fmt.Sprintf("the run cannot see %d loss events per transfer within the budget of %s: that takes about %s; sized for %d instead, about %s",
		want, o.Budget.Round(time.Second), (spent + full.Time).Round(time.Second), o.Matrix.LossEvents, (spent + est.Time).Round(time.Second))
	return est, append(matrix.LossSizing(o.engine()), note)
}
