"""Tournaments: a stream of their own (state and fold), pairing, tallies, and the desk that
records rounds, results and disputes (see `desk.Tournaments`)."""
