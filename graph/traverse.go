package graph

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// Papers returned by the traversals below are the stored records: their
// Entities are references (kind and name) without aliases or counts, since
// reading every entity record of every paper of a page would cost more
// than the traversal. Store.Paper and Store.Papers return them filled.

// keyScanner reads many prefixes in one read transaction through one
// key-only iterator. Costs measured at 100k papers: positioning it (Seek)
// costs about 35µs, as it positions a cursor in every level of the LSM
// tree, about what opening a new prefix iterator costs; each further key
// about 0.4µs; a point read (Get) about 10µs, as bloom filters skip most
// tables. So traversals scan long prefixes (postings), and check single
// edges or read records by point reads.
type keyScanner struct {
	txn   *badger.Txn
	it    *badger.Iterator
	cache *readCache // nil reads Badger only
}

func newKeyScanner(txn *badger.Txn, c *readCache) *keyScanner {
	return &keyScanner{txn: txn, it: txn.NewIterator(badger.IteratorOptions{}), cache: c}
}

func (sc *keyScanner) close() { sc.it.Close() }

// scan calls fn with each key under prefix from start (the first key under
// prefix when start is nil), in order, until fn returns false. The key and
// item are valid only during the call.
func (sc *keyScanner) scan(prefix, start []byte, fn func(key []byte, item *badger.Item) bool) {
	if start == nil {
		start = prefix
	}
	for sc.it.Seek(start); sc.it.ValidForPrefix(prefix); sc.it.Next() {
		item := sc.it.Item()
		if !fn(item.Key(), item) {
			return
		}
	}
}

// has reports whether key exists.
func has(txn *badger.Txn, key []byte) (bool, error) {
	_, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// paperEdges returns the ids of the entities paper pid links to (0x03),
// in byte order; none when it has none or does not exist.
// A nil c reads Badger only.
func paperEdges(txn *badger.Txn, c *readCache, pid string) ([]string, error) {
	v, err := c.edgesOf(txn, pid)
	if err != nil {
		return nil, err
	}
	ids, err := decodeEdges(v)
	if err != nil {
		return nil, fmt.Errorf("paper %s: %w", pid, err)
	}
	return ids, nil
}

// hasEdge reports whether paper pid links to entity eid.
func hasEdge(txn *badger.Txn, c *readCache, pid, eid string) (bool, error) {
	ids, err := paperEdges(txn, c, pid)
	if err != nil {
		return false, err
	}
	_, ok := slices.BinarySearch(ids, eid)
	return ok, nil
}

// readPaperRecord reads the stored record of paper id (0x01), entity
// references as stored (kind and name).
func readPaperRecord(txn *badger.Txn, c *readCache, id string) (Paper, error) {
	var p Paper
	v, ok, err := c.record(txn, id)
	if err == nil && !ok {
		return p, fmt.Errorf("paper %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("paper %s: %w", id, err)
	}
	if err := decodePaperRecord(v, &p); err != nil {
		return p, fmt.Errorf("paper %s: %w", id, err)
	}
	return p, nil
}

// checkNode validates a node id and reports whether it names a paper. It
// fails with ErrBadID for a malformed id and ErrNotFound for a missing node.
func checkNode(txn *badger.Txn, id string) (paper bool, err error) {
	key := paperKey(id)
	if !IsPaperID(id) {
		if _, _, err := ParseEntityID(id); err != nil {
			return false, err
		}
		key = entityKey(id)
	}
	ok, err := has(txn, key)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, fmt.Errorf("node %s: %w", id, ErrNotFound)
	}
	return IsPaperID(id), nil
}

// readNode reads a paper record or an entity record (PaperCount filled).
func readNode(txn *badger.Txn, c *readCache, id string) (Node, error) {
	if IsPaperID(id) {
		p, err := readPaperRecord(txn, c, id)
		return Node{Paper: &p}, err
	}
	e, err := c.entity(txn, id)
	return Node{Entity: &e}, err
}

// entityKind returns the kind named by an entity id's prefix, or 0.
func entityKind(id string) Kind {
	name, _, ok := strings.Cut(id, ":")
	if !ok {
		return 0
	}
	for _, k := range Kinds {
		if kindNames[k] == name {
			return k
		}
	}
	return 0
}

// kindSet returns the set of kinds in ks; empty ks means def (or all kinds
// when def is nil). It fails with ErrBadKind for an invalid kind.
func kindSet(ks []Kind, def []Kind) ([5]bool, error) {
	var set [5]bool
	if len(ks) == 0 {
		ks = def
		if ks == nil {
			ks = Kinds
		}
	}
	for _, k := range ks {
		if !k.Valid() {
			return set, fmt.Errorf("%w: %d", ErrBadKind, uint8(k))
		}
		set[k] = true
	}
	return set, nil
}

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
	maxLimit         = 1000
)

// SharingQuery selects the papers that share entities with a paper.
type SharingQuery struct {
	Kinds     []Kind // kinds of shared entity; empty means Dataset
	MinShared int    // at least this many shared entities; < 1 means 1
	Family    bool   // also match through the taxonomy (shared ancestors)
	Limit     int    // at most this many matches; <= 0 means 20, at most 1000
}

// Match is one paper sharing entities with another.
type Match struct {
	Paper  Paper
	Shared []Entity // sorted by kind then name
	Score  float64  // sum of 1/log(degree) over Shared
}

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
func (s *Store) Sharing(ctx context.Context, id string, q SharingQuery) ([]Match, error) {
	if !IsPaperID(id) {
		return nil, fmt.Errorf("sharing %q: %w: not a paper id", id, ErrBadID)
	}
	kinds, err := kindSet(q.Kinds, []Kind{Dataset})
	if err != nil {
		return nil, fmt.Errorf("sharing %s: %w", id, err)
	}
	minShared := max(q.MinShared, 1)
	limit := q.Limit
	if limit <= 0 {
		limit = 20
	}
	limit = min(limit, maxLimit)
	var out []Match
	err = s.db.View(func(txn *badger.Txn) error {
		if _, ok, err := s.cache.record(txn, id); err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("paper %s: %w", id, ErrNotFound)
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
			p := cat2(prefix, u, "")
			sc.scan(p, nil, func(k []byte, _ *badger.Item) bool {
				v := string(k[len(p):])
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

// paperKeyID is a paper id as a map key that costs no allocation.
type paperKeyID [PaperIDLen]byte

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
func readMatches(txn *badger.Txn, c *readCache, groups []*shareGroup, best []ranked) ([]Match, error) {
	ents := make(map[string]Entity)
	out := make([]Match, 0, len(best))
	for _, r := range best {
		p, err := readPaperRecord(txn, c, string(r.id[:]))
		if err != nil {
			return nil, err
		}
		m := Match{Paper: p, Score: r.score}
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
		slices.SortFunc(m.Shared, func(a, b Entity) int {
			return cmp.Or(cmp.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
		})
		out = append(out, m)
	}
	return out, nil
}

// NeighborhoodQuery bounds a neighbourhood.
type NeighborhoodQuery struct {
	Hops  int    // 1..4
	Kinds []Kind // entity kinds to follow; empty means all
	Limit int    // cap on nodes; <= 0 means 200, at most 1000
}

// maxNeighborhoodHops bounds NeighborhoodQuery.Hops: four hops from a
// paper reach most of a connected graph already.
const maxNeighborhoodHops = 4

// Neighborhood returns the nodes within q.Hops of id, breadth first,
// following paper-entity edges both ways and taxonomy edges both ways,
// through papers and entities of q.Kinds only (the start node is always
// included), and the edges between them. Once q.Limit nodes are reached it
// stops, so a hub contributes only its first papers in id order, and
// Truncated reports that nodes were left out. Nodes are
// sorted by ID, edges by (From, To, Kind). It fails with ErrBadArgument
// for hops outside 1..4, ErrBadID for a malformed id and ErrNotFound for a
// missing node.
func (s *Store) Neighborhood(ctx context.Context, id string, q NeighborhoodQuery) (Subgraph, error) {
	if q.Hops < 1 || q.Hops > maxNeighborhoodHops {
		return Subgraph{}, fmt.Errorf("neighborhood %s: %w: hops %d not in 1..%d", id, ErrBadArgument, q.Hops, maxNeighborhoodHops)
	}
	kinds, err := kindSet(q.Kinds, nil)
	if err != nil {
		return Subgraph{}, fmt.Errorf("neighborhood %s: %w", id, err)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 200
	}
	limit = min(limit, maxLimit)
	var g Subgraph
	err = s.db.View(func(txn *badger.Txn) error {
		if _, err := checkNode(txn, id); err != nil {
			return err
		}
		r := &nodeReader{txn: txn, sc: newKeyScanner(txn, s.cache), nodes: make(map[string]Node)}
		defer r.sc.close()
		seen := map[string]bool{id: true}
		nodes := []string{id}
		frontier := []string{id}
		// truncated: a node beyond the limit was met. The traversal goes
		// on past the limit until it meets one, so that a neighbourhood of
		// exactly limit nodes is not reported cut.
		truncated := false
		for hop := 0; hop < q.Hops && len(frontier) > 0 && !truncated; hop++ {
			var next []string
			for _, u := range frontier {
				err := r.neighbors(u, kinds, func(v string) bool {
					if !seen[v] {
						if len(nodes) == limit {
							truncated = true
							return false
						}
						seen[v] = true
						nodes = append(nodes, v)
						next = append(next, v)
					}
					return true
				})
				if err != nil {
					return err
				}
				if truncated {
					break
				}
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			frontier = next
		}
		var err error
		g, err = r.subgraph(nodes, seen)
		g.Truncated = truncated
		return err
	})
	if err != nil {
		return Subgraph{}, fmt.Errorf("neighborhood %s: %w", id, err)
	}
	return g, nil
}

// neighbors calls fn with each neighbour of node u of an allowed kind
// (papers always are) until fn returns false: a paper's entities, or an
// entity's broader entities, narrower entities, then papers.
func neighbors(sc *keyScanner, u string, kinds [5]bool, fn func(v string) bool) error {
	if IsPaperID(u) {
		ids, err := paperEdges(sc.txn, sc.cache, u)
		for _, v := range ids {
			if kinds[entityKind(v)] && !fn(v) {
				break
			}
		}
		return err
	}
	more := true
	for _, prefix := range []byte{prefixBroader, prefixNarrower} {
		p := cat2(prefix, u, "")
		sc.scan(p, nil, func(k []byte, _ *badger.Item) bool {
			v := string(k[len(p):])
			more = !kinds[entityKind(v)] || fn(v)
			return more
		})
		if !more {
			return nil
		}
	}
	return sc.eachPosting(u, func(pid paperKeyID) bool { return fn(string(pid[:])) })
}

// nodeReader reads the records of a traversal's nodes once each. A
// record gives the node's edges too: a paper's entity references and an
// entity's broader names are written in the same transaction as its edges
// (0x03, 0x08), and reading them costs a point read where a scan of the
// edges would cost a seek, several times more at 100k papers.
type nodeReader struct {
	txn   *badger.Txn
	sc    *keyScanner
	nodes map[string]Node
}

func (r *nodeReader) node(id string) (Node, error) {
	if n, ok := r.nodes[id]; ok {
		return n, nil
	}
	n, err := readNode(r.txn, r.sc.cache, id)
	if err != nil {
		return Node{}, err
	}
	r.nodes[id] = n
	return n, nil
}

// neighbors calls fn with each neighbour of node u of an allowed kind
// (papers always are) until fn returns false: a paper's entities, or an
// entity's broader entities, narrower entities, then papers in id order.
func (r *nodeReader) neighbors(u string, kinds [5]bool, fn func(v string) bool) error {
	n, err := r.node(u)
	if err != nil {
		return err
	}
	if n.Paper != nil {
		for _, e := range n.Paper.Entities {
			if kinds[e.Kind] && !fn(e.ID()) {
				return nil
			}
		}
		return nil
	}
	e := n.Entity
	if kinds[e.Kind] {
		for _, b := range e.Broader {
			if !fn(EntityID(e.Kind, b)) {
				return nil
			}
		}
	}
	more := true
	p := cat2(prefixNarrower, u, "")
	r.sc.scan(p, nil, func(k []byte, _ *badger.Item) bool {
		v := string(k[len(p):])
		more = !kinds[entityKind(v)] || fn(v)
		return more
	})
	if !more {
		return nil
	}
	return r.sc.eachPosting(u, func(pid paperKeyID) bool { return fn(string(pid[:])) })
}

// subgraph returns nodes with their records and the edges between members
// of in, read from the records.
func (r *nodeReader) subgraph(nodes []string, in map[string]bool) (Subgraph, error) {
	slices.Sort(nodes)
	g := Subgraph{Nodes: make([]Node, 0, len(nodes))}
	for _, id := range nodes {
		n, err := r.node(id)
		if err != nil {
			return Subgraph{}, err
		}
		g.Nodes = append(g.Nodes, n)
		if n.Paper != nil {
			for _, e := range n.Paper.Entities {
				if v := e.ID(); in[v] {
					g.Edges = append(g.Edges, Edge{From: id, To: v, Kind: e.Kind.String()})
				}
			}
			continue
		}
		for _, b := range n.Entity.Broader {
			if v := EntityID(n.Entity.Kind, b); in[v] && v != id {
				g.Edges = append(g.Edges, Edge{From: id, To: v, Kind: BroaderEdge})
			}
		}
	}
	sortEdges(g.Edges)
	return g, nil
}

func sortEdges(es []Edge) {
	slices.SortFunc(es, func(a, b Edge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.Kind, b.Kind))
	})
}

// Bounds of Path's work: a hub entity linked to a third of the papers
// would put them all in the frontier. Expanding an entity reads at most
// pathFanout of its papers; so that a path through the hub to a small
// frontier on the other side is still found, the first pathChecks papers of
// that frontier are checked for an edge to the hub by point reads (a large
// frontier meets the hub's first papers anyway, and checking it all would
// cost more than the search). A shortest path that needs a paper beyond a
// hub's first pathFanout may be missed: a longer one is returned, or none.
const (
	maxPathHops = 8
	pathFanout  = 256
	pathChecks  = 64
)

// Path returns a shortest path between from and to of at most maxHops
// edges (1..8), found by bidirectional breadth-first search over the same
// undirected edges as Neighborhood, all kinds; ok is false when there is
// none within maxHops. Unlike other Subgraphs, it is in path order:
// Nodes[0] is from and Nodes[len-1] is to, and Edges[i] joins Nodes[i] and
// Nodes[i+1] (From and To keep the edge's own direction: paper -> entity,
// entity -> broader). It fails with ErrBadArgument for maxHops outside 1..8, ErrBadID
// for a malformed id and ErrNotFound for a missing node.
func (s *Store) Path(ctx context.Context, from, to string, maxHops int) (g Subgraph, ok bool, err error) {
	if maxHops < 1 || maxHops > maxPathHops {
		return Subgraph{}, false, fmt.Errorf("path %s %s: %w: max hops %d not in 1..%d", from, to, ErrBadArgument, maxHops, maxPathHops)
	}
	err = s.db.View(func(txn *badger.Txn) error {
		for _, id := range []string{from, to} {
			if _, err := checkNode(txn, id); err != nil {
				return err
			}
		}
		sc := newKeyScanner(txn, s.cache)
		defer sc.close()
		nodes, found, err := bfsPath(ctx, sc, from, to, maxHops)
		if err != nil || !found {
			return err
		}
		ok = true
		in := make(map[string]bool, len(nodes))
		for _, n := range nodes {
			in[n] = true
		}
		g = Subgraph{}
		for _, id := range nodes {
			n, err := readNode(txn, s.cache, id)
			if err != nil {
				return err
			}
			g.Nodes = append(g.Nodes, n)
		}
		for i := 1; i < len(nodes); i++ {
			e, err := pathEdge(txn, nodes[i-1], nodes[i])
			if err != nil {
				return err
			}
			g.Edges = append(g.Edges, e)
		}
		return nil
	})
	if err != nil {
		return Subgraph{}, false, fmt.Errorf("path %s %s: %w", from, to, err)
	}
	return g, ok, nil
}

// pathEdge returns the edge between adjacent path nodes a and b in its
// stored direction.
func pathEdge(txn *badger.Txn, a, b string) (Edge, error) {
	switch {
	case IsPaperID(a):
		return Edge{From: a, To: b, Kind: entityKind(b).String()}, nil
	case IsPaperID(b):
		return Edge{From: b, To: a, Kind: entityKind(a).String()}, nil
	}
	up, err := has(txn, broaderKey(a, b))
	if err != nil {
		return Edge{}, err
	}
	if up {
		return Edge{From: a, To: b, Kind: BroaderEdge}, nil
	}
	return Edge{From: b, To: a, Kind: BroaderEdge}, nil
}

// bfsSide is one end of a bidirectional search: the parent of each node
// reached, toward the end it started from, and the last level reached.
type bfsSide struct {
	parent   map[string]string
	frontier []string
}

// bfsPath returns the nodes of a shortest path from -> to, in order.
func bfsPath(ctx context.Context, sc *keyScanner, from, to string, maxHops int) ([]string, bool, error) {
	if from == to {
		return []string{from}, true, nil
	}
	a := &bfsSide{parent: map[string]string{from: ""}, frontier: []string{from}}
	b := &bfsSide{parent: map[string]string{to: ""}, frontier: []string{to}}
	all := [5]bool{}
	for _, k := range Kinds {
		all[k] = true
	}
	for hops := 0; hops < maxHops && len(a.frontier) > 0 && len(b.frontier) > 0; hops++ {
		// Expanding the smaller frontier keeps the two searches balanced,
		// which is what makes bidirectional search cheap.
		side, other := a, b
		if len(b.frontier) < len(a.frontier) {
			side, other = b, a
		}
		var next []string
		meet := ""
		for _, u := range side.frontier {
			n := 0
			err := neighbors(sc, u, all, func(v string) bool {
				if _, seen := side.parent[v]; !seen {
					side.parent[v] = u
					next = append(next, v)
					if _, hit := other.parent[v]; hit {
						meet = v
						return false
					}
				}
				if !IsPaperID(u) && IsPaperID(v) {
					n++
				}
				return n < pathFanout
			})
			if err != nil {
				return nil, false, err
			}
			if meet == "" && n == pathFanout {
				if meet, err = hubMeet(sc, u, side, other); err != nil {
					return nil, false, err
				}
			}
			if meet != "" {
				return joinPath(a, b, meet), true, nil
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		side.frontier = next
	}
	return nil, false, nil
}

// hubMeet checks whether hub entity u, whose papers were read only in part,
// links to a paper of the other side's frontier; it returns that paper,
// recorded as reached from u, or "".
func hubMeet(sc *keyScanner, u string, side, other *bfsSide) (string, error) {
	for i, p := range other.frontier {
		if i == pathChecks {
			break
		}
		if !IsPaperID(p) {
			continue
		}
		ok, err := hasEdge(sc.txn, sc.cache, p, u)
		if err != nil {
			return "", err
		}
		if ok {
			if _, seen := side.parent[p]; !seen {
				side.parent[p] = u
			}
			return p, nil
		}
	}
	return "", nil
}

// joinPath returns the path through meet, a node both sides reached, from
// a's start to b's start.
func joinPath(a, b *bfsSide, meet string) []string {
	var left []string
	for v := meet; v != ""; v = a.parent[v] {
		left = append(left, v)
	}
	slices.Reverse(left)
	for v := b.parent[meet]; v != ""; v = b.parent[v] {
		left = append(left, v)
	}
	return left
}

// Page sizes and counting bounds of the listings.
const (
	maxPage = 100
	// maxTotal bounds the counting of a Total that has no counter behind
	// it (a kind, a source, combined filters, a name search): counting
	// examines at most maxTotal papers or entities, so that a page costs
	// milliseconds however large the database.
	maxTotal = 10000
	// maxChecked is maxTotal for a count that checks a filter per paper
	// by point reads or seeks.
	maxChecked = 1000
	// coPapers bounds the papers CoOccurring reads of a hub entity, a seek
	// into the edges of each; see CoOccurrence.Estimated.
	coPapers = 500
)

// PaperPage is one page of papers.
type PaperPage struct {
	Papers    []Paper
	Cursors   []string // opaque cursor of each paper
	EndCursor string
	HasNext   bool
	// Total counts the papers matching the filter: exact from a counter
	// for no filter or an entity alone; else counted among the first
	// maxTotal (10,000) papers of the narrowest filter, or maxChecked
	// (1,000) when other filters are checked per paper, so a lower bound
	// past those. For a text filter, see rankText.
	Total int
}

// PaperFilter restricts ListPapers. Filters combine with "and".
type PaperFilter struct {
	Entity string // entity id
	Kind   Kind   // papers linked to any entity of this kind
	Text   string // full-text query
	Source string // source file base name
}

// paperDriver is the scan a paper listing walks, in its order; the other
// filters are checked on each paper it yields.
type paperDriver struct {
	prefix []byte
	minLen int // of a valid cursor
	// paperID returns the paper of a key (or its value), "" to skip it.
	paperID func(key []byte, item *badger.Item) (string, error)
}

// ListPapers returns a page of at most first (1..100) papers matching f
// after the cursor (empty for the first page). Papers come in paper id
// order, in record order for a Source filter, and by BM25 score for a
// Text filter (see Search). It fails with ErrBadArgument for first out of
// range, ErrBadID or ErrNotFound for a bad f.Entity, ErrBadKind for a bad
// f.Kind and ErrBadCursor for a cursor of another listing.
func (s *Store) ListPapers(ctx context.Context, f PaperFilter, first int, after string) (PaperPage, error) {
	if first < 1 || first > maxPage {
		return PaperPage{}, fmt.Errorf("list papers: %w: first %d not in 1..%d", ErrBadArgument, first, maxPage)
	}
	if f.Kind != 0 && !f.Kind.Valid() {
		return PaperPage{}, fmt.Errorf("list papers: %w: %d", ErrBadKind, uint8(f.Kind))
	}
	if f.Entity != "" {
		if _, _, err := ParseEntityID(f.Entity); err != nil {
			return PaperPage{}, fmt.Errorf("list papers: %w", err)
		}
	}
	var page PaperPage
	err := s.db.View(func(txn *badger.Txn) error {
		if f.Entity != "" {
			if ok, err := has(txn, entityKey(f.Entity)); err != nil || !ok {
				if err == nil {
					err = fmt.Errorf("entity %s: %w", f.Entity, ErrNotFound)
				}
				return err
			}
		}
		var err error
		if f.Text != "" {
			page, err = listText(ctx, txn, s.cache, f, first, after)
		} else {
			page, err = listPapers(ctx, txn, s.cache, f, first, after)
		}
		return err
	})
	if err != nil {
		return PaperPage{}, fmt.Errorf("list papers: %w", err)
	}
	return page, nil
}

// PapersOf returns a page of at most first (1..100) papers linked to the
// entity id, in paper id order, after the cursor; Total is the entity's
// degree. Errors are those of ListPapers.
func (s *Store) PapersOf(ctx context.Context, entityID string, first int, after string) (PaperPage, error) {
	return s.ListPapers(ctx, PaperFilter{Entity: entityID}, first, after)
}

// listPapers serves ListPapers without a text filter: it picks the
// narrowest scan among the filters and checks the others per paper.
func listPapers(ctx context.Context, txn *badger.Txn, c *readCache, f PaperFilter, first int, after string) (PaperPage, error) {
	var d paperDriver
	byEntity, byKind, bySource := f.Entity != "", f.Kind != 0, f.Source != ""
	switch {
	case byEntity:
		d.prefix = entityEdgePrefix(f.Entity)
		d.minLen = len(d.prefix) + PaperIDLen
		byEntity = false
	case bySource:
		d.prefix = cat2(prefixSource, f.Source, "")
		d.minLen = len(d.prefix) + 4
		d.paperID = func(_ []byte, item *badger.Item) (string, error) {
			v, err := item.ValueCopy(nil)
			return string(v), err
		}
		bySource = false
	case byKind:
		// A paper's edges (0x03) are one value and an entity id starts
		// with its kind.
		d.prefix = []byte{prefixPaperEdge}
		d.minLen = 1 + PaperIDLen
		want := []byte{sep}
		want = append(append(want, f.Kind.String()...), ':')
		d.paperID = func(k []byte, item *badger.Item) (string, error) {
			found := false
			err := item.Value(func(v []byte) error {
				found = bytes.HasPrefix(v, want[1:]) || bytes.Contains(v, want)
				return nil
			})
			if err != nil || !found {
				return "", err
			}
			return string(k[1:]), nil
		}
		byKind = false
	default:
		d.prefix = []byte{prefixPaper}
		d.minLen = 1 + PaperIDLen
	}
	if d.paperID == nil {
		d.paperID = func(k []byte, _ *badger.Item) (string, error) { return string(k[len(k)-PaperIDLen:]), nil }
	}
	start, err := decodeCursor(after, d.prefix, d.minLen)
	if err != nil {
		return PaperPage{}, err
	}
	// A paper's kinds and source are checked on its record, which a match
	// needs anyway: a point read where a scan of its edges would cost a
	// seek.
	match := func(pid string) (*Paper, bool, error) {
		if byEntity {
			if ok, err := hasEdge(txn, c, pid, f.Entity); err != nil || !ok {
				return nil, false, err
			}
		}
		if !byKind && !bySource {
			return nil, true, nil
		}
		p, err := readPaperRecord(txn, c, pid)
		if err != nil {
			return nil, false, err
		}
		return &p, (!bySource || p.Source == f.Source) && (!byKind || hasKind(&p, f.Kind)), nil
	}
	filtered := byEntity || byKind || bySource

	var page PaperPage
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	var scanErr error
	sc.scan(d.prefix, start, func(k []byte, item *badger.Item) bool {
		if start != nil && bytes.Equal(k, start) {
			return true
		}
		pid, err := d.paperID(k, item)
		if err != nil {
			scanErr = err
			return false
		}
		if pid == "" {
			return true
		}
		p, ok, err := match(pid)
		if err != nil {
			scanErr = err
			return false
		}
		if !ok {
			return true
		}
		if len(page.Papers) == first {
			page.HasNext = true
			return false
		}
		if p == nil {
			rec, err := readPaperRecord(txn, c, pid)
			if err != nil {
				scanErr = err
				return false
			}
			p = &rec
		}
		page.Papers = append(page.Papers, *p)
		page.Cursors = append(page.Cursors, encodeCursor(k))
		return true
	})
	if scanErr != nil {
		return PaperPage{}, scanErr
	}
	if n := len(page.Cursors); n > 0 {
		page.EndCursor = page.Cursors[n-1]
	}
	if err := ctx.Err(); err != nil {
		return PaperPage{}, err
	}

	// Total.
	switch {
	case filtered || f.Kind != 0 || f.Source != "":
		bound := maxTotal
		if filtered {
			bound = maxChecked
		}
		n, err := countPapers(ctx, txn, d, match, bound)
		if err != nil {
			return PaperPage{}, err
		}
		page.Total = n
	case f.Entity != "":
		n, err := getUint64(txn, degreeKey(f.Entity))
		page.Total = int(n)
		if err != nil {
			return PaperPage{}, err
		}
	default:
		n, err := getUint64(txn, counterKey("papers"))
		page.Total = int(n)
		if err != nil {
			return PaperPage{}, err
		}
	}
	return page, nil
}

// hasKind reports whether p links to an entity of kind k.
func hasKind(p *Paper, k Kind) bool {
	return slices.ContainsFunc(p.Entities, func(e Entity) bool { return e.Kind == k })
}

// countPapers counts the papers that match among the first bound the
// driver yields.
func countPapers(ctx context.Context, txn *badger.Txn, d paperDriver, match func(string) (*Paper, bool, error), bound int) (int, error) {
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	n, seen := 0, 0
	var err error
	sc.scan(d.prefix, nil, func(k []byte, item *badger.Item) bool {
		var pid string
		if pid, err = d.paperID(k, item); err != nil {
			return false
		}
		if pid == "" {
			return true
		}
		seen++
		var ok bool
		if _, ok, err = match(pid); err != nil {
			return false
		}
		if ok {
			n++
		}
		return seen < bound && ctx.Err() == nil
	})
	if err == nil {
		err = ctx.Err()
	}
	return n, err
}

// EntityOrder orders ListEntities.
type EntityOrder int

const (
	ByDegree EntityOrder = iota // most papers first, then by id
	ByName                      // alphabetical by id
)

// EntityPage is one page of entities.
type EntityPage struct {
	Entities  []Entity
	Cursors   []string
	EndCursor string
	HasNext   bool
	// Total counts the entities of the listing: exact, but a name search
	// stops counting at maxTotal (10,000).
	Total int
}

// entityRef is an entity in a listing before its record is read.
type entityRef struct {
	id     string
	degree uint64
}

// sortKey returns the key the listing's cursor holds for r: its top key
// (0x06) by degree, its record key (0x02) by name.
func (r entityRef) sortKey(order EntityOrder) []byte {
	if order == ByName {
		return entityKey(r.id)
	}
	return topKey(entityKind(r.id), r.degree, r.id)
}

// compare orders entities as the listing does: by id, or by falling
// degree then id (the top keys' order within a kind, merged across kinds).
func (order EntityOrder) compare(a, b entityRef) int {
	if order == ByName {
		return strings.Compare(a.id, b.id)
	}
	return cmp.Or(cmp.Compare(b.degree, a.degree), strings.Compare(a.id, b.id))
}

// ListEntities returns a page of at most first (1..100) entities of kind k
// (0 for all kinds) after the cursor. With search, only the entities with
// a name or alias starting with search (case-insensitive; punctuation
// counts, or is ignored when the whole prefix is taken as a slug) are
// listed. ByDegree lists the entities linked to at least one paper, most
// papers first; ByName lists all, taxonomy ancestors without papers too.
// Entities have PaperCount filled, not Narrower. It fails with
// ErrBadArgument for first out of range or an unknown order, ErrBadKind
// for an invalid k and ErrBadCursor for a cursor of another listing.
func (s *Store) ListEntities(ctx context.Context, k Kind, search string, order EntityOrder, first int, after string) (EntityPage, error) {
	if first < 1 || first > maxPage {
		return EntityPage{}, fmt.Errorf("list entities: %w: first %d not in 1..%d", ErrBadArgument, first, maxPage)
	}
	if order != ByDegree && order != ByName {
		return EntityPage{}, fmt.Errorf("list entities: %w: order %d", ErrBadArgument, order)
	}
	if k != 0 && !k.Valid() {
		return EntityPage{}, fmt.Errorf("list entities: %w: %d", ErrBadKind, uint8(k))
	}
	var page EntityPage
	err := s.db.View(func(txn *badger.Txn) error {
		var refs []entityRef
		var err error
		switch {
		case search != "":
			refs, page.Total, err = searchEntities(ctx, txn, k, search, order, first+1, after)
		case order == ByDegree:
			refs, err = topEntities(txn, k, first+1, after)
			if err == nil {
				page.Total, err = countTop(txn, k)
			}
		default:
			refs, err = entitiesByName(txn, k, first+1, after)
			if err == nil {
				page.Total, err = countEntities(txn, k)
			}
		}
		if err != nil {
			return err
		}
		if len(refs) > first {
			refs, page.HasNext = refs[:first], true
		}
		for _, r := range refs {
			e, err := readEntity(txn, r.id, false)
			if err != nil {
				return err
			}
			page.Entities = append(page.Entities, e)
			page.Cursors = append(page.Cursors, encodeCursor(r.sortKey(order)))
		}
		if n := len(page.Cursors); n > 0 {
			page.EndCursor = page.Cursors[n-1]
		}
		return nil
	})
	if err != nil {
		return EntityPage{}, fmt.Errorf("list entities: %w", err)
	}
	return page, nil
}

// topEntities returns at most n entities of kind k (0: all kinds, merged)
// by falling degree then id, after the cursor (a top key, 0x06).
func topEntities(txn *badger.Txn, k Kind, n int, after string) ([]entityRef, error) {
	prefix := []byte{prefixTop}
	if k != 0 {
		prefix = topPrefix(k)
	}
	c, err := decodeCursor(after, prefix, 11)
	if err != nil {
		return nil, err
	}
	var from entityRef
	if c != nil {
		var ck Kind
		if ck, from.degree, from.id, err = parseTopKey(c); err != nil || entityKind(from.id) != ck {
			return nil, fmt.Errorf("%w: %q", ErrBadCursor, after)
		}
	}
	kinds := Kinds
	if k != 0 {
		kinds = []Kind{k}
	}
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	var out []entityRef
	for _, kk := range kinds {
		// Within a kind the keys are ordered as the merged listing is, so
		// seeking to the cursor's (degree, id) in each kind resumes all.
		var start []byte
		if c != nil {
			start = topKey(kk, from.degree, from.id)
		}
		got := 0
		sc.scan(topPrefix(kk), start, func(key []byte, _ *badger.Item) bool {
			if start != nil && bytes.Equal(key, start) {
				return true
			}
			_, d, id, err := parseTopKey(key)
			if err != nil {
				return true
			}
			out = append(out, entityRef{id, d})
			got++
			return got < n
		})
	}
	slices.SortFunc(out, ByDegree.compare)
	return out[:min(n, len(out))], nil
}

// countTop counts the entities of kind k (0: all) with papers.
func countTop(txn *badger.Txn, k Kind) (int, error) {
	prefix := []byte{prefixTop}
	if k != 0 {
		prefix = topPrefix(k)
	}
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	n := 0
	sc.scan(prefix, nil, func([]byte, *badger.Item) bool { n++; return true })
	return n, nil
}

// entitiesByName returns at most n entities of kind k (0: all) in id
// order after the cursor (an entity key, 0x02).
func entitiesByName(txn *badger.Txn, k Kind, n int, after string) ([]entityRef, error) {
	prefix := []byte{prefixEntity}
	if k != 0 {
		prefix = entityKey(k.String() + ":")
	}
	start, err := decodeCursor(after, prefix, len(prefix)+1)
	if err != nil {
		return nil, err
	}
	sc := newKeyScanner(txn, nil)
	defer sc.close()
	var out []entityRef
	sc.scan(prefix, start, func(key []byte, _ *badger.Item) bool {
		if start != nil && bytes.Equal(key, start) {
			return true
		}
		out = append(out, entityRef{id: string(key[1:])})
		return len(out) < n
	})
	return out, nil
}

// countEntities returns the number of entities of kind k (0: all) from
// the per-kind counters.
func countEntities(txn *badger.Txn, k Kind) (int, error) {
	kinds := Kinds
	if k != 0 {
		kinds = []Kind{k}
	}
	total := 0
	for _, kk := range kinds {
		n, err := getUint64(txn, counterKey("entities:"+kk.String()))
		if err != nil {
			return 0, err
		}
		total += int(n)
	}
	return total, nil
}

// nameForms returns the forms under which a name prefix is looked up in
// the name index (0x07): normalised, and as a slug, since the index holds
// both.
func nameForms(s string) []string {
	norm, slug := normName(s), Slug(s)
	switch {
	case norm == "":
		return nil
	case slug == "" || slug == norm:
		return []string{norm}
	}
	return []string{norm, slug}
}

// prefixMatches returns the ids of entities of kind k (0: all) with a name
// or alias starting with search, each once, at most maxN, and for each how
// much of its closest name the search covers: len(search)/len(name), 1 for
// an exact match, and whether the search ends at a word boundary of one of
// its names (see wordPrefix).
func prefixMatches(ctx context.Context, sc *keyScanner, k Kind, search string, maxN int) (ids []string, cover map[string]float64, word map[string]bool) {
	cover, word = make(map[string]float64), make(map[string]bool)
	want := ""
	if k != 0 {
		want = k.String() + ":"
	}
	for _, form := range nameForms(search) {
		p := namePrefix(form)
		sc.scan(p, nil, func(key []byte, _ *badger.Item) bool {
			norm, id, err := parseNameKey(key)
			if err != nil || !strings.HasPrefix(id, want) {
				return true
			}
			c, seen := cover[id]
			if !seen {
				if len(ids) == maxN {
					return false
				}
				ids = append(ids, id)
			}
			cover[id] = max(c, float64(len(form))/float64(len(norm)))
			word[id] = word[id] || wordPrefix(norm, form)
			return ctx.Err() == nil
		})
	}
	return ids, cover, word
}

// searchEntities returns at most n entities of kind k whose name or alias
// starts with search, in order, after the cursor, and their number.
func searchEntities(ctx context.Context, txn *badger.Txn, k Kind, search string, order EntityOrder, n int, after string) ([]entityRef, int, error) {
	prefix := []byte{prefixTop}
	if order == ByName {
		prefix = []byte{prefixEntity}
	}
	c, err := decodeCursor(after, prefix, 3)
	if err != nil {
		return nil, 0, err
	}
	sc := newKeyScanner(txn, nil)
	ids, _, _ := prefixMatches(ctx, sc, k, search, maxTotal)
	sc.close()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	refs := make([]entityRef, len(ids))
	for i, id := range ids {
		d, err := getUint64(txn, degreeKey(id))
		if err != nil {
			return nil, 0, err
		}
		refs[i] = entityRef{id, d}
	}
	slices.SortFunc(refs, order.compare)
	total := len(refs)
	if c != nil {
		var from entityRef
		if order == ByName {
			from.id = string(c[1:])
		} else if _, from.degree, from.id, err = parseTopKey(c); err != nil {
			return nil, 0, fmt.Errorf("%w: %q", ErrBadCursor, after)
		}
		i, _ := slices.BinarySearchFunc(refs, from, order.compare)
		if i < len(refs) && refs[i].id == from.id {
			i++
		}
		refs = refs[i:]
	}
	return refs[:min(n, len(refs))], total, nil
}

// CoOccurrence is an entity and the number of papers it shares with another.
type CoOccurrence struct {
	Entity Entity
	Count  int
	// Estimated reports whether Count was scaled up from a sample: for an
	// entity with more than coPapers (500) papers, only its first 500 in
	// paper id order — a uniform sample, as ids are hashes — are read, and
	// counts are multiplied by degree/500.
	Estimated bool
}

// CoOccurring returns at most limit (<= 0 means 10, at most 1000) entities
// of kind k (0 for any) that share the most papers with the entity id,
// most first, then by id; the entity itself is left out. It fails with
// ErrBadID for a malformed id, ErrNotFound for a missing entity and
// ErrBadKind for an invalid k.
func (s *Store) CoOccurring(ctx context.Context, id string, k Kind, limit int) ([]CoOccurrence, error) {
	if _, _, err := ParseEntityID(id); err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	if k != 0 && !k.Valid() {
		return nil, fmt.Errorf("co-occurring %s: %w: %d", id, ErrBadKind, uint8(k))
	}
	if limit <= 0 {
		limit = 10
	}
	limit = min(limit, maxLimit)
	var out []CoOccurrence
	err := s.db.View(func(txn *badger.Txn) error {
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
		slices.SortFunc(refs, ByDegree.compare)
		estimated := uint64(len(papers)) < degree
		for _, r := range refs[:min(limit, len(refs))] {
			e, err := readEntity(txn, r.id, false)
			if err != nil {
				return err
			}
			n := int(r.degree)
			if estimated {
				n = int(math.Round(float64(r.degree) * float64(degree) / float64(len(papers))))
			}
			out = append(out, CoOccurrence{Entity: e, Count: n, Estimated: estimated})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("co-occurring %s: %w", id, err)
	}
	return out, nil
}

// Top returns at most limit (<= 0 means 10, at most 1000) entities of
// kind k (0 for all kinds) with the most papers, most first, then by id,
// PaperCount filled. It fails with ErrBadKind for an invalid k.
func (s *Store) Top(ctx context.Context, k Kind, limit int) ([]Entity, error) {
	if k != 0 && !k.Valid() {
		return nil, fmt.Errorf("top: %w: %d", ErrBadKind, uint8(k))
	}
	if limit <= 0 {
		limit = 10
	}
	limit = min(limit, maxLimit)
	var out []Entity
	err := s.db.View(func(txn *badger.Txn) error {
		refs, err := topEntities(txn, k, limit, "")
		if err != nil {
			return err
		}
		for _, r := range refs {
			e, err := readEntity(txn, r.id, false)
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("top %s: %w", k, err)
	}
	return out, nil
}

// PageOf asks for one page of an entity's papers, as PapersOf does.
type PageOf struct {
	Entity string // entity id
	First  int    // 1..100
	After  string // cursor, empty for the first page
}

// PapersOfEach returns the pages that PapersOf would return for reqs, in
// the same order, read in one transaction; errs[i] is request i's error
// (those of PapersOf). err is set only when the transaction itself fails.
// It serves dataloaders.
func (s *Store) PapersOfEach(ctx context.Context, reqs []PageOf) (pages []PaperPage, errs []error, err error) {
	pages, errs = make([]PaperPage, len(reqs)), make([]error, len(reqs))
	err = s.db.View(func(txn *badger.Txn) error {
		for i, r := range reqs {
			if err := ctx.Err(); err != nil {
				return err
			}
			pages[i], errs[i] = papersOf(ctx, txn, s.cache, r)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("papers of each: %w", err)
	}
	return pages, errs, nil
}

// papersOf serves one request of PapersOfEach, checking it as ListPapers
// does.
func papersOf(ctx context.Context, txn *badger.Txn, c *readCache, r PageOf) (PaperPage, error) {
	if r.First < 1 || r.First > maxPage {
		return PaperPage{}, fmt.Errorf("papers of %s: %w: first %d not in 1..%d", r.Entity, ErrBadArgument, r.First, maxPage)
	}
	if _, _, err := ParseEntityID(r.Entity); err != nil {
		return PaperPage{}, fmt.Errorf("papers of: %w", err)
	}
	if ok, err := has(txn, entityKey(r.Entity)); err != nil || !ok {
		if err == nil {
			err = ErrNotFound
		}
		return PaperPage{}, fmt.Errorf("papers of %s: %w", r.Entity, err)
	}
	page, err := listPapers(ctx, txn, c, PaperFilter{Entity: r.Entity}, r.First, r.After)
	if err != nil {
		return PaperPage{}, fmt.Errorf("papers of %s: %w", r.Entity, err)
	}
	return page, nil
}
