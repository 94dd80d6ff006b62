package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/graph"
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
	list      []uint32        // ordinals of the papers linked to a member
	above     []int           // groups that are ancestors of this one
}

// Sharing returns the papers sharing at least q.MinShared entities of
// q.Kinds with the paper id, best first: by Adamic-Adar score (the sum over
// shared entities of 1/log(degree), a degree below 2 counting as 2), then
// by paper id. With q.Family a paper also shares an ancestor A of the
// paper's entity E (E itself included) when it links to A or a descendant
// of A (up to graph.FamilyDepth levels and graph.FamilySize entities each way);
// the shared entity listed is the most specific such A, an ancestor of
// another shared entity is not counted, and A's degree is the sum over
// its family. It fails with ErrBadID for a malformed id and ErrNotFound
// for a missing paper; a paper without entities of q.Kinds has no matches.
//
// The answer is exact whatever the entities' degrees: the papers of each
// shared entity come from an in-memory index of sorted paper ordinals
// (shareIndex), taken rarest first until no paper not yet seen could
// still reach the q.Limit-th best score (see rankSharing).
func (s *Store) Sharing(ctx context.Context, id string, q graph.SharingQuery) ([]graph.Match, error) {
	if !graph.IsPaperID(id) {
		return nil, fmt.Errorf("sharing %q: %w: not a paper id", id, graph.ErrBadID)
	}
	kinds, err := kindSet(q.Kinds, []graph.Kind{graph.Dataset})
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	minShared := max(q.MinShared, 1)
	limit, err := graph.ListLimit("limit", q.Limit)
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	x, release, err := s.sharingIndex()
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	defer release()
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
		edges, err := s.cache.edgesOf(txn, id)
		if err != nil {
			return err
		}
		var own []string
		if err := eachEdge(edges, func(eid []byte) {
			if kinds[entityKind(string(eid))] {
				own = append(own, string(eid))
			}
		}); err != nil {
			return fmt.Errorf("paper %s: %w", id, err)
		}
		groups := shareGroups(sc, own, q.Family)
		if len(groups) == 0 {
			return nil
		}
		var src shareLists = x
		if x == nil {
			var members []string
			for _, g := range groups {
				members = append(members, g.members...)
			}
			if src, err = readBadgerLists(sc, members); err != nil {
				return err
			}
		}
		var self paperKeyID
		copy(self[:], id)
		groups = sortGroups(src, groups)
		best, err := rankSharing(ctx, src, self, groups, minShared, limit)
		if err != nil {
			return err
		}
		out, err = readMatches(txn, s.cache, groups, best, q.Omit)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	return out, nil
}

// shareGroups builds the groups of the paper's entities own, without their
// papers (see sortGroups).
func shareGroups(sc *keyScanner, own []string, family bool) []*shareGroup {
	byID := make(map[string]*shareGroup)
	var groups []*shareGroup
	add := func(gid string) {
		if byID[gid] == nil {
			g := &shareGroup{id: gid, members: []string{gid}}
			byID[gid] = g
			groups = append(groups, g)
		}
	}
	for _, e := range own {
		add(e)
		if family {
			for _, a := range taxonomyWalk(sc, prefixBroader, e, graph.FamilyDepth) {
				add(a)
			}
		}
	}
	if family {
		for _, g := range groups {
			g.members = append(g.members, taxonomyWalk(sc, prefixNarrower, g.id, graph.FamilyDepth)...)
			g.ancestors = make(map[string]bool)
			for _, a := range taxonomyWalk(sc, prefixBroader, g.id, graph.FamilyDepth) {
				g.ancestors[a] = true
			}
		}
	}
	return groups
}

// sortGroups fills in the groups' papers, degree and weight from src and
// sorts them by degree then id: rarest, so heaviest, first.
func sortGroups(src shareLists, groups []*shareGroup) []*shareGroup {
	for _, g := range groups {
		g.degree = 0
		for _, m := range g.members {
			g.degree += uint64(len(src.list(m)))
		}
		g.bonus = graph.AdamicAdar(int(g.degree))
		g.list = src.list(g.members[0])
		for _, m := range g.members[1:] {
			g.list = unionOrdinals(g.list, src.list(m))
		}
	}
	slices.SortFunc(groups, func(a, b *shareGroup) int {
		return cmp.Or(cmp.Compare(a.degree, b.degree), strings.Compare(a.id, b.id))
	})
	for i, g := range groups {
		for j, h := range groups {
			if g.ancestors[h.id] {
				groups[i].above = append(groups[i].above, j)
			}
		}
	}
	return groups
}

// unionOrdinals returns the ascending union of two ascending lists, in a
// new array.
func unionOrdinals(a, b []uint32) []uint32 {
	out := make([]uint32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// taxonomyWalk is graph.FamilyWalk over the taxonomy keys of prefix
// (0x08 up, 0x09 down).
func taxonomyWalk(sc *keyScanner, prefix byte, id string, depth int) []string {
	return graph.FamilyWalk(id, depth, func(u string, yield func(v string)) {
		p := taxonomyPrefix(prefix, u)
		sc.scan(p, nil, func(k []byte, _ *badger.Item) bool {
			yield(taxonomyTarget(p, k))
			return true
		})
	})
}

// ranked is a match before its records are read: shared holds the
// indexes of the groups it shares, ancestors of others dropped.
type ranked struct {
	ord    uint32
	id     paperKeyID
	score  float64
	shared []int
}

// candidate is a paper found through the groups processed so far: cnt of
// them and raw the sum of their bonus in group order; mask has the bits
// of those among the first 64 groups (membership of the others is looked
// up in their lists, see has).
type candidate struct {
	ord  uint32
	cnt  int32
	raw  float64
	mask uint64
}

// Bounds of rankSharing's bound checks.
const (
	// probeMin is the size of a group's list below which it is merged
	// without first looking for a better bound: merging a small list costs
	// less than the probe.
	probeMin = 256
	// slack absorbs rounding: a bound is a sum in another order than the
	// score, and may fall an ulp below it.
	slack = 1e-9
)

// below reports whether a score bounded by ub surely ranks below t.
func below(ub, t float64) bool { return ub*(1+slack) < t }

// ranker holds one rankSharing call's state.
type ranker struct {
	src       shareLists
	groups    []*shareGroup
	rest      []float64 // rest[j]: the bonus of groups j.. summed
	minShared int
	limit     int
	family    bool
	seen      []bool // scratch of final, a slot per group
	dropped   []bool
}

// rankSharing returns the best limit papers, other than self, sharing at
// least minShared of groups (sorted rarest first), exactly. It merges the
// groups' lists in order into the set of candidates while a paper first
// found in the next group could still rank: once groups j.. sum to less
// than the limit-th best score found so far (t, by probe), none can, and
// the remaining groups are only looked up for the candidates whose score
// could still reach t, dropping the others. On 100k papers a query whose
// paper is on a hub of 33k papers merges one or two such lists, tens of
// microseconds each.
func rankSharing(ctx context.Context, src shareLists, self paperKeyID, groups []*shareGroup, minShared, limit int) ([]ranked, error) {
	n := len(groups)
	r := &ranker{src: src, groups: groups, rest: make([]float64, n+1), minShared: minShared, limit: limit,
		seen: make([]bool, n), dropped: make([]bool, n)}
	for j := n - 1; j >= 0; j-- {
		r.rest[j] = r.rest[j+1] + groups[j].bonus
		r.family = r.family || len(groups[j].above) > 0
	}
	selfOrd, hasSelf := src.ordinal(self)
	bufs := candidatePool.Get().(*[2][]candidate)
	defer candidatePool.Put(bufs)
	cands, spare := bufs[0][:0], bufs[1][:0]
	defer func() { bufs[0], bufs[1] = cands[:0], spare[:0] }()
	t, haveT := 0.0, false
	j := 0
	for ; j < n; j++ {
		if n-j < minShared || (haveT && below(r.rest[j], t)) {
			break
		}
		cands, spare = mergeGroup(spare[:0], cands, groups[j].list, j, groups[j].bonus, selfOrd, hasSelf), cands
		if j+1 < n && len(cands) >= limit && len(groups[j+1].list) >= probeMin {
			if pt, ok := r.probe(cands, j+1); ok && (!haveT || pt > t) {
				t, haveT = pt, true
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for k := j; k < n; k++ {
		w := 0
		for _, c := range cands {
			if int(c.cnt)+n-k < minShared || (haveT && below(c.raw+r.rest[k], t)) {
				continue
			}
			cands[w] = c
			w++
		}
		cands = cands[:w]
		intersectGroup(cands, groups[k].list, k, groups[k].bonus)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var best []ranked
	for i := range cands {
		c := &cands[i]
		score, cnt := c.raw, int(c.cnt)
		if r.family {
			score, cnt = r.final(c, n)
		}
		if cnt < minShared {
			continue
		}
		if len(best) == limit {
			kth := &best[limit-1]
			if score < kth.score || (score == kth.score && src.compare(c.ord, kth.ord) > 0) {
				continue
			}
		}
		e := ranked{ord: c.ord, score: score}
		at, _ := slices.BinarySearchFunc(best, e, func(a, b ranked) int {
			return cmp.Or(cmp.Compare(b.score, a.score), src.compare(a.ord, b.ord))
		})
		best = slices.Insert(best, at, e)
		if len(best) > limit {
			best = best[:limit]
		}
	}
	for i := range best {
		c := candidate{ord: best[i].ord, mask: r.maskOf(best[i].ord)}
		best[i].shared = r.sharedOf(&c, n)
		best[i].id = src.id(best[i].ord)
	}
	return best, nil
}

// probe returns the limit-th best exact score among the candidates with
// the highest raw scores, groups known.. not merged yet, and whether
// limit of them qualify: a lower bound of the limit-th best score of all.
func (r *ranker) probe(cands []candidate, known int) (float64, bool) {
	p := r.limit + 8
	top := make([]*candidate, 0, p)
	for i := range cands {
		c := &cands[i]
		if len(top) == p && c.raw <= top[p-1].raw {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, c, func(a, b *candidate) int { return cmp.Compare(b.raw, a.raw) })
		top = slices.Insert(top, at, c)
		if len(top) > p {
			top = top[:p]
		}
	}
	scores := make([]float64, 0, p)
	for _, c := range top {
		if s, cnt := r.final(c, known); cnt >= r.minShared {
			scores = append(scores, s)
		}
	}
	if len(scores) < r.limit {
		return 0, false
	}
	slices.Sort(scores)
	return scores[len(scores)-r.limit], true
}

// has reports whether candidate c shares group i, given that groups
// before known have been merged into or looked up for it.
func (r *ranker) has(c *candidate, i, known int) bool {
	if i < 64 && i < known {
		return c.mask&(1<<i) != 0
	}
	_, ok := slices.BinarySearch(r.groups[i].list, c.ord)
	return ok
}

// maskOf returns the bits of the first 64 groups that paper ord shares.
func (r *ranker) maskOf(ord uint32) uint64 {
	var m uint64
	for i, g := range r.groups[:min(len(r.groups), 64)] {
		if _, ok := slices.BinarySearch(g.list, ord); ok {
			m |= 1 << i
		}
	}
	return m
}

// mark sets r.seen to the groups c shares, ancestors of others dropped.
func (r *ranker) mark(c *candidate, known int) {
	for i := range r.groups {
		r.seen[i] = r.has(c, i, known)
		r.dropped[i] = false
	}
	for i, g := range r.groups {
		if r.seen[i] {
			for _, a := range g.above {
				r.dropped[a] = true
			}
		}
	}
	for i := range r.groups {
		r.seen[i] = r.seen[i] && !r.dropped[i]
	}
}

// sharedOf returns the groups c shares, ancestors of others dropped.
func (r *ranker) sharedOf(c *candidate, known int) []int {
	r.mark(c, known)
	var out []int
	for i, ok := range r.seen {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// final returns c's exact score and count of shared groups, summing in
// group order as the raw score does.
func (r *ranker) final(c *candidate, known int) (float64, int) {
	r.mark(c, known)
	var s float64
	n := 0
	for i, ok := range r.seen {
		if ok {
			s += r.groups[i].bonus
			n++
		}
	}
	return s, n
}

// candidatePool keeps rankSharing's two candidate arrays between calls:
// with a hub of 33k papers each is 800 KB, which allocating and clearing
// anew cost more than the merge.
var candidatePool = sync.Pool{New: func() any { return new([2][]candidate) }}

// mergeGroup returns into dst the union of cands and the papers list of
// group j (ascending, as cands is by ordinal), self left out.
func mergeGroup(dst, cands []candidate, list []uint32, j int, bonus float64, self uint32, hasSelf bool) []candidate {
	var bit uint64
	if j < 64 {
		bit = 1 << j
	}
	dst = slices.Grow(dst, len(cands)+len(list))
	i := 0
	for _, v := range list {
		for i < len(cands) && cands[i].ord < v {
			dst = append(dst, cands[i])
			i++
		}
		if i < len(cands) && cands[i].ord == v {
			c := cands[i]
			c.cnt++
			c.raw += bonus
			c.mask |= bit
			dst = append(dst, c)
			i++
			continue
		}
		if hasSelf && v == self {
			continue
		}
		dst = append(dst, candidate{ord: v, cnt: 1, raw: bonus, mask: bit})
	}
	return append(dst, cands[i:]...)
}

// intersectGroup adds group j to the candidates on its list: by binary
// search in what is left of the list when there are few candidates, else
// by walking both.
func intersectGroup(cands []candidate, list []uint32, j int, bonus float64) {
	var bit uint64
	if j < 64 {
		bit = 1 << j
	}
	mark := func(c *candidate) {
		c.cnt++
		c.raw += bonus
		c.mask |= bit
	}
	if len(cands)*16 < len(list) {
		lo := 0
		for i := range cands {
			at, ok := slices.BinarySearch(list[lo:], cands[i].ord)
			lo += at
			if ok {
				mark(&cands[i])
			}
		}
		return
	}
	k := 0
	for i := range cands {
		for k < len(list) && list[k] < cands[i].ord {
			k++
		}
		if k < len(list) && list[k] == cands[i].ord {
			mark(&cands[i])
		}
	}
}

// readMatches reads the records of the ranked papers, but for the parts in
// omit, and their shared entities.
func readMatches(txn *badger.Txn, c *readCache, groups []*shareGroup, best []ranked, omit graph.PaperParts) ([]graph.Match, error) {
	// The groups' entities, read once each: ents[i] for groups[i].
	ents := make([]graph.Entity, len(groups))
	read := make([]bool, len(groups))
	out := make([]graph.Match, 0, len(best))
	for _, r := range best {
		p, err := readPaperParts(txn, c, string(r.id[:]), omit)
		if err != nil {
			return nil, err
		}
		m := graph.Match{Paper: p, Score: r.score, Shared: make([]graph.Entity, 0, len(r.shared))}
		for _, i := range r.shared {
			if !read[i] {
				if ents[i], err = c.entity(txn, groups[i].id); err != nil {
					return nil, err
				}
				read[i] = true
			}
			m.Shared = append(m.Shared, ents[i])
		}
		slices.SortFunc(m.Shared, func(a, b graph.Entity) int {
			return cmp.Or(cmp.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
		})
		out = append(out, m)
	}
	return out, nil
}
