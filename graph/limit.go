package graph

import "fmt"

// ListLimit applies the one policy for the length of a list (see
// DefaultLimit), which every store follows: n, DefaultLimit for 0,
// ErrBadArgument naming what below 0 or above MaxLimit.
func ListLimit(what string, n int) (int, error) {
	return limit(what, n, DefaultLimit, MaxLimit)
}

// NodeLimit is ListLimit for the nodes of a subgraph: DefaultNodes, at
// most MaxNodes.
func NodeLimit(what string, n int) (int, error) {
	return limit(what, n, DefaultNodes, MaxNodes)
}

func limit(what string, n, def, most int) (int, error) {
	switch {
	case n == 0:
		return def, nil
	case n < 0 || n > most:
		return 0, fmt.Errorf("%w: %s %d not in 0..%d", ErrBadArgument, what, n, most)
	}
	return n, nil
}
