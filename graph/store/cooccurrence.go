package store

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// CoOccurring returns at most q.Limit (see graph.DefaultLimit) entities of
// kind q.Kind (0 for any) that share the most papers with the entity id,
// most first, then by id; the entity itself is left out. It fails with
// ErrBadID for a malformed id, ErrNotFound for a missing entity and
// ErrBadKind for an invalid kind.
func (s *Store) CoOccurring(ctx context.Context, id string, q graph.CoOccurrenceQuery) ([]graph.CoOccurrence, error) {
	k := q.Kind
	if _, _, err := graph.ParseEntityID(id); err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	if k != 0 && !k.Valid() {
		return nil, fmt.Errorf("co-occurring %s: %w: %d", id, graph.ErrBadKind, uint8(k))
	}
	limit, err := graph.ListLimit("limit", q.Limit)
	if err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	var out []graph.CoOccurrence
	err = s.view(ctx, func(txn *badger.Txn) error {
		if _, err := checkNode(txn, id); err != nil {
			return err
		}
		degree, err := getUint64(txn, degreeKey(id))
		if err != nil {
			return err
		}
		sc := newKeyScanner(txn, s.cache)
		defer sc.close()
		var papers []string
		err = sc.eachPosting(id, func(pid paperKeyID) bool {
			papers = append(papers, string(pid[:]))
			return len(papers) < coPapers
		})
		if err != nil {
			return err
		}
		counts := make(map[string]int)
		kindName := ""
		if k != 0 {
			kindName = k.String() + ":"
		}
		for i, pid := range papers {
			if i%256 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			ids, err := paperEdges(txn, s.cache, pid)
			if err != nil {
				return err
			}
			for _, e := range ids {
				if e != id && strings.HasPrefix(e, kindName) {
					counts[e]++
				}
			}
		}
		refs := make([]entityRef, 0, len(counts))
		for e, n := range counts {
			refs = append(refs, entityRef{e, uint64(n)})
		}
		slices.SortFunc(refs, compareEntities(graph.ByDegree))
		estimated := uint64(len(papers)) < degree
		for _, r := range refs[:min(limit, len(refs))] {
			e, err := s.cache.entityCopy(txn, r.id)
			if err != nil {
				return err
			}
			n := int(r.degree)
			if estimated {
				n = int(math.Round(float64(r.degree) * float64(degree) / float64(len(papers))))
			}
			out = append(out, graph.CoOccurrence{Entity: e, Count: n, Estimated: estimated})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	return out, nil
}
