package store

import (
	"fmt"

	"github.com/papergraph/papergraph/graph"
)

// listLimit applies the store's one policy for the length of a list (see
// graph.DefaultLimit): n, graph.DefaultLimit for 0, ErrBadArgument naming
// what below 0 or above graph.MaxLimit.
func listLimit(what string, n int) (int, error) {
	return limit(what, n, graph.DefaultLimit, graph.MaxLimit)
}

// nodeLimit is listLimit for the nodes of a subgraph: graph.DefaultNodes,
// at most graph.MaxNodes.
func nodeLimit(what string, n int) (int, error) {
	return limit(what, n, graph.DefaultNodes, graph.MaxNodes)
}

func limit(what string, n, def, most int) (int, error) {
	switch {
	case n == 0:
		return def, nil
	case n < 0 || n > most:
		return 0, fmt.Errorf("%w: %s %d not in 0..%d", graph.ErrBadArgument, what, n, most)
	}
	return n, nil
}
