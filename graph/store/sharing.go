package store

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
)

// adamicAdar is the weight of a shared entity linked to degree papers: rare
// entities say more about two papers than hubs. A degree below 2 would
// divide by log(1) = 0 or less; it counts as 2.
func adamicAdar(degree uint64) float64 { return 1 / math.Log(float64(max(degree, 2))) }

// Bounds of Sharing's work. A query reads every posting (0x04) of the
// rarer shared entities, up to sharingBudget in all, and treats the others
// — each above sharingHub papers, or past the budget — as hubs: of a hub it
// reads only a window of its first postings (sharingWindow, or eight per
// match asked for, at most sharingMaxWindow), and checks (see checkHubs)
// whether the papers found through rare entities, at most sharingChecks
// of them, are also linked to it. At 100k papers a hub linked to a third of
// them would otherwise cost a scan of 33k keys per query; what the bound
// costs in exactness is described at Sharing.
const (
	sharingHub       = 2048
	sharingBudget    = 8192
	sharingWindow    = 256
	sharingMaxWindow = 4096
	sharingChecks    = 128
	sharingGroups    = 64 // one bit each in a candidate's mask
	taxonomyDepth    = 4  // levels followed up (0x08) or down (0x09)
	taxonomyFamily   = 64 // entities in one family
)

// shareGroup is what a candidate paper may share with the query paper: an
// entity of the paper or, with Family, one of its ancestors, matched
// through any of its members (itself and its descendants).
type shareGroup struct {
	id        string
	members   []string
	degree    uint64 // papers linked to the members, summed
	bonus     float64
	ancestors map[string]bool // strict ancestors of id, with Family
	full      bool            // every posting read
}

// Sharing returns the papers sharing at least q.MinShared entities of
// q.Kinds with the paper id, best first: by Adamic-Adar score (the sum over
// shared entities of 1/log(degree)), then by paper id. With q.Family a
// paper also shares an ancestor A of the paper's entity E (E itself
// included) when it links to A or a descendant of A; the shared entity
// listed is the most specific such A and its degree is the sum over the
// family. It fails with ErrBadID for a malformed id and ErrNotFound for a
// missing paper; a paper without entities of q.Kinds has no matches.
//
// Exactness: every paper sharing a non-hub entity (see sharingHub) is
// scored exactly, hubs included, when the read cache holds the hubs'
// papers (see hubLists), as it does between writes for hubs under
// cacheMaxPostings papers. Otherwise, as long as at most sharingChecks such
// papers must be checked before the best q.Limit are settled (the check
// goes best-first by an upper bound, so it usually settles within a few
// dozen); past that the others are ranked without their hubs, a lower
// bound of their score, and their hubs are missing from Shared. Papers sharing only hubs are taken from the postings of the
// hubs up to a common paper id (the first postings of the largest hub,
// see sharingWindow): as ids are hashes that is a uniform sample, and as ties
// are broken by paper id it is the exact answer when all of them share
// the same hubs; a paper beyond the window that shares more hubs than
// those in it is missed. Its score would be below sum(1/log(sharingHub))
// per hub anyway.
func (s *Store) Sharing(ctx context.Context, id string, q graph.SharingQuery) ([]graph.Match, error) {
	if !graph.IsPaperID(id) {
		return nil, fmt.Errorf("sharing %q: %w: not a paper id", id, graph.ErrBadID)
	}
	kinds, err := kindSet(q.Kinds, []graph.Kind{graph.Dataset})
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	minShared := max(q.MinShared, 1)
	limit, err := listLimit("limit", q.Limit)
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	var out []graph.Match
	err = s.view(ctx, func(txn *badger.Txn) error {
		if _, ok, err := s.cache.record(txn, id); err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("paper %s: %w", id, graph.ErrNotFound)
			}
			return err
		}
		sc := newKeyScanner(txn, s.cache)
		defer sc.close()
		ids, err := paperEdges(txn, s.cache, id)
		if err != nil {
			return err
		}
		var own []string
		for _, eid := range ids {
			if kinds[entityKind(eid)] {
				own = append(own, eid)
			}
		}
		groups, err := shareGroups(txn, sc, own, q.Family)
		if err != nil {
			return err
		}
		if len(groups) == 0 {
			return nil
		}
		ranked, err := rankSharing(ctx, sc, id, groups, minShared, limit)
		if err != nil {
			return err
		}
		out, err = readMatches(txn, s.cache, groups, ranked)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	return out, nil
}

// shareGroups builds the groups of the paper's entities own, sorted by
// degree then id, hubs marked, at most sharingGroups (the largest, which
// weigh least, are dropped beyond that).
func shareGroups(txn *badger.Txn, sc *keyScanner, own []string, family bool) ([]*shareGroup, error) {
	byID := make(map[string]*shareGroup)
	var groups []*shareGroup
	add := func(gid string) *shareGroup {
		if g := byID[gid]; g != nil {
			return g
		}
		g := &shareGroup{id: gid, members: []string{gid}}
		byID[gid] = g
		groups = append(groups, g)
		return g
	}
	for _, e := range own {
		add(e)
		if family {
			for _, a := range taxonomyWalk(sc, prefixBroader, e, taxonomyDepth) {
				add(a)
			}
		}
	}
	for _, g := range groups {
		if family {
			g.members = append(g.members, taxonomyWalk(sc, prefixNarrower, g.id, taxonomyDepth)...)
			g.ancestors = make(map[string]bool)
			for _, a := range taxonomyWalk(sc, prefixBroader, g.id, taxonomyDepth) {
				g.ancestors[a] = true
			}
		}
		for _, m := range g.members {
			d, err := sc.cache.degree(txn, m)
			if err != nil {
				return nil, err
			}
			g.degree += d
		}
		g.bonus = adamicAdar(g.degree)
	}
	slices.SortFunc(groups, func(a, b *shareGroup) int {
		return cmp.Or(cmp.Compare(a.degree, b.degree), strings.Compare(a.id, b.id))
	})
	if len(groups) > sharingGroups {
		groups = groups[:sharingGroups]
	}
	budget := uint64(sharingBudget)
	for _, g := range groups {
		if g.degree > sharingHub || g.degree > budget {
			break
		}
		g.full = true
		budget -= g.degree
	}
	return groups, nil
}

// taxonomyWalk returns the entities reachable from id through taxonomy
// keys of prefix (0x08 up, 0x09 down) within depth levels, nearest first,
// at most taxonomyFamily of them, without id.
func taxonomyWalk(sc *keyScanner, prefix byte, id string, depth int) []string {
	seen := map[string]bool{id: true}
	var out []string
	frontier := []string{id}
	for level := 0; level < depth && len(frontier) > 0; level++ {
		var next []string
		for _, u := range frontier {
			p := taxonomyPrefix(prefix, u)
			sc.scan(p, nil, func(k []byte, _ *badger.Item) bool {
				v := taxonomyTarget(p, k)
				if !seen[v] && len(out) < taxonomyFamily {
					seen[v] = true
					out = append(out, v)
					next = append(next, v)
				}
				return true
			})
		}
		frontier = next
	}
	return out
}

type ranked struct {
	id    paperKeyID
	mask  uint64 // groups shared, after dropping ancestors of shared groups
	score float64
}

// rankSharing finds and scores the candidates, best first, at most limit.
func rankSharing(ctx context.Context, sc *keyScanner, self string, groups []*shareGroup, minShared, limit int) ([]ranked, error) {
	var selfID paperKeyID
	copy(selfID[:], self)
	cands := make(map[paperKeyID]uint64)
	var scanErr error
	collect := func(bit uint64, member string, end *paperKeyID, maxN int) (last paperKeyID, n int) {
		err := sc.eachPosting(member, func(pid paperKeyID) bool {
			if (end != nil && bytes.Compare(pid[:], end[:]) > 0) || n == maxN {
				return false
			}
			last, n = pid, n+1
			if pid != selfID {
				cands[pid] |= bit
			}
			return true
		})
		scanErr = cmp.Or(scanErr, err)
		return last, n
	}
	var hubs []int
	for i, g := range groups {
		if g.full {
			for _, m := range g.members {
				collect(1<<i, m, nil, -1)
			}
		} else {
			hubs = append(hubs, i)
		}
	}
	if err := cmp.Or(scanErr, ctx.Err()); err != nil {
		return nil, err
	}
	// The hub window: all hubs' postings up to one paper id, so that within
	// it a candidate's hub bits are exact. The largest hub is the densest,
	// so its first sharingWindow postings end earliest; a smaller hub
	// that still fills its window moves the end down.
	window := min(max(sharingWindow, 8*limit), sharingMaxWindow)
	var windowEnd paperKeyID
	haveWindow := false
	if len(hubs) > 0 {
		for i := range windowEnd {
			windowEnd[i] = 0xff
		}
		for j := len(hubs) - 1; j >= 0; j-- {
			g := groups[hubs[j]]
			for _, m := range g.members {
				last, n := collect(1<<hubs[j], m, &windowEnd, window)
				if n == window {
					windowEnd = last
				}
			}
		}
		haveWindow = true
		if scanErr != nil {
			return nil, scanErr
		}
	}
	inWindow := func(pid paperKeyID) bool {
		return haveWindow && bytes.Compare(pid[:], windowEnd[:]) <= 0
	}
	var hubMask uint64
	hubBits := make(map[string]uint64) // hub member -> its groups' bits
	for _, i := range hubs {
		hubMask |= 1 << i
		for _, m := range groups[i].members {
			hubBits[m] |= 1 << i
		}
	}
	// With every hub's papers in the cache, a candidate's hubs are found
	// there, exactly and without a read: check them all.
	lists, err := sc.hubLists(groups, hubs)
	if err != nil {
		return nil, err
	}

	// Candidates with the same known mask and window status have the same
	// upper bound: bucket them rather than sort thousands of ids.
	type bucketKey struct {
		mask    uint64
		unknown bool
	}
	buckets := make(map[bucketKey][]paperKeyID)
	for pid, mask := range cands {
		// A posting beyond the window end may have been read for a hub
		// member before the end moved down: drop those hub bits, they are
		// checked with the rest.
		unknown := len(hubs) > 0 && !inWindow(pid)
		if unknown {
			mask &^= hubMask
		}
		bk := bucketKey{mask, unknown}
		buckets[bk] = append(buckets[bk], pid)
	}
	type bucket struct {
		bucketKey
		ub  float64
		ids []paperKeyID
	}
	var order []bucket
	for bk, ids := range buckets {
		ubMask := bk.mask
		if bk.unknown {
			ubMask |= hubMask
		}
		// The bound counts shared groups before ancestors are dropped, and
		// sums in group order like the final score, so it is never below it.
		if popcount(ubMask) < minShared {
			continue
		}
		order = append(order, bucket{bk, groupScore(groups, ubMask), ids})
	}
	slices.SortFunc(order, func(a, b bucket) int { return cmp.Compare(b.ub, a.ub) })

	var best []ranked
	checks := 0
	for _, b := range order {
		if len(best) == limit && b.ub < best[limit-1].score {
			break
		}
		slices.SortFunc(b.ids, func(x, y paperKeyID) int { return bytes.Compare(x[:], y[:]) })
		for _, pid := range b.ids {
			if len(best) == limit {
				kth := best[limit-1]
				if b.ub < kth.score || (b.ub == kth.score && bytes.Compare(pid[:], kth.id[:]) > 0) {
					break
				}
			}
			mask := b.mask
			switch {
			case b.unknown && lists != nil:
				for m, ids := range lists {
					if _, ok := slices.BinarySearchFunc(ids, pid, func(a, b paperKeyID) int { return bytes.Compare(a[:], b[:]) }); ok {
						mask |= hubBits[m]
					}
				}
			case b.unknown && checks < sharingChecks:
				checks++
				var err error
				if mask, err = checkHubs(sc, pid, mask, hubBits); err != nil {
					return nil, err
				}
			}
			mask = dropAncestors(groups, mask)
			if popcount(mask) < minShared {
				continue
			}
			r := ranked{pid, mask, groupScore(groups, mask)}
			at, _ := slices.BinarySearchFunc(best, r, func(a, b ranked) int {
				return cmp.Or(cmp.Compare(b.score, a.score), bytes.Compare(a.id[:], b.id[:]))
			})
			if at < limit {
				best = slices.Insert(best, at, r)
				if len(best) > limit {
					best = best[:limit]
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return best, nil
}

// hubLists returns the papers of every member of the hub groups, when the
// cache serves sc and can hold them all; else nil. The first query that
// needs a hub reads all its papers into the cache (a scan of 33k keys
// takes about 13ms at 100k papers), for every later one to find them
// there.
func (sc *keyScanner) hubLists(groups []*shareGroup, hubs []int) (map[string][]paperKeyID, error) {
	if len(hubs) == 0 || !sc.cache.serving(sc.txn) {
		return nil, nil
	}
	lists := make(map[string][]paperKeyID)
	for _, i := range hubs {
		if groups[i].degree >= cacheMaxPostings {
			return nil, nil
		}
		for _, m := range groups[i].members {
			ids, err := sc.allPostings(m)
			if err != nil {
				return nil, err
			}
			lists[m] = ids
		}
	}
	return lists, nil
}

// checkHubs adds to mask the bits of the hub groups that paper pid is
// linked to: one point read of its edges (about 10µs at 100k papers), or
// a cache lookup.
func checkHubs(sc *keyScanner, pid paperKeyID, mask uint64, hubBits map[string]uint64) (uint64, error) {
	v, err := sc.cache.edgesOf(sc.txn, string(pid[:]))
	if err != nil {
		return 0, err
	}
	for len(v) > 0 {
		i := bytes.IndexByte(v, sep)
		if i < 0 {
			return 0, fmt.Errorf("paper %s: bad edges value", pid[:])
		}
		mask |= hubBits[string(v[:i])]
		v = v[i+1:]
	}
	return mask, nil
}

// groupScore sums the bonus of the groups in mask, in group order.
func groupScore(groups []*shareGroup, mask uint64) float64 {
	var s float64
	for i, g := range groups {
		if mask&(1<<i) != 0 {
			s += g.bonus
		}
	}
	return s
}

// dropAncestors removes from mask the groups that are ancestors of another
// group in mask: a paper on OSWorld-G shares OSWorld-G with another on
// OSWorld-G, not also their ancestor OSWorld.
func dropAncestors(groups []*shareGroup, mask uint64) uint64 {
	out := mask
	for i, g := range groups {
		if mask&(1<<i) == 0 || g.ancestors == nil {
			continue
		}
		for j, h := range groups {
			if mask&(1<<j) != 0 && g.ancestors[h.id] {
				out &^= 1 << j
			}
		}
	}
	return out
}

func popcount(m uint64) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// readMatches reads the records of the ranked papers and their shared
// entities.
func readMatches(txn *badger.Txn, c *readCache, groups []*shareGroup, best []ranked) ([]graph.Match, error) {
	ents := make(map[string]graph.Entity)
	out := make([]graph.Match, 0, len(best))
	for _, r := range best {
		p, err := readPaperRecord(txn, c, string(r.id[:]))
		if err != nil {
			return nil, err
		}
		m := graph.Match{Paper: p, Score: r.score}
		for i, g := range groups {
			if r.mask&(1<<i) == 0 {
				continue
			}
			e, ok := ents[g.id]
			if !ok {
				if e, err = c.entity(txn, g.id); err != nil {
					return nil, err
				}
				ents[g.id] = e
			}
			m.Shared = append(m.Shared, e)
		}
		slices.SortFunc(m.Shared, func(a, b graph.Entity) int {
			return cmp.Or(cmp.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
		})
		out = append(out, m)
	}
	return out, nil
}
