package main

import "time"

// solveRegret gives the comparator Frank-Wolfe iterations, one at a time,
// until end (on clock) and, when budgeted, while it has credit (each
// iteration is paid from it); at the end of the stream it adds a final
// checkpoint.
func (s *session) solveRegret(end time.Duration, budgeted bool) {
	if s.reg == nil {
		return
	}
	if s.state == "done" {
		s.reg.Checkpoint()
	}
	for s.reg.Pending() > 0 {
		t := clock()
		if t >= end || budgeted && s.regretCredit <= 0 {
			break
		}
		s.reg.Solve(1)
		if budgeted {
			s.regretCredit -= clock() - t
		}
	}
}
