package dgraph

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// searchQuery finds papers (title, abstract) and entities (name, aliases)
// through pg.text's fulltext index: those with every stemmed term of the
// query first, then those with any, each in id order.
const searchQuery = `query q($q: string, $first: int) {
	all(func: alloftext(pg.text, $q), orderasc: pg.id, first: $first) { ` + nodeFields + ` }
	any(func: anyoftext(pg.text, $q), orderasc: pg.id, first: $first) { ` + nodeFields + ` }
}`

// Search returns at most limit papers and entities matching query, in one
// DQL query over Dgraph's fulltext index (stemming and stop words of
// English). Dgraph does not rank text: a hit with every term of the query
// scores 2 and comes first, one with some of them scores 1, ties in id
// order. The Badger store ranks by BM25 instead, so the two agree on
// which nodes match a one-word query and on little else of the order.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]graph.Hit, error) {
	n, err := graph.ListLimit("limit", limit)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	if strings.TrimSpace(query) == "" {
		return nil, nil
	}
	var r struct{ All, Any []node }
	if err := s.query(ctx, searchQuery, map[string]string{"$q": query, "$first": strconv.Itoa(n)}, &r); err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	var hits []graph.Hit
	seen := map[string]bool{}
	for i, list := range [][]node{r.All, r.Any} {
		for j := range list {
			if len(hits) == n || seen[list[j].ID] {
				continue
			}
			seen[list[j].ID] = true
			gn, err := list[j].graphNode()
			if err != nil {
				return nil, err
			}
			hits = append(hits, graph.Hit{Node: gn, Score: float64(2 - i)})
		}
	}
	return hits, nil
}
