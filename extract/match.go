package extract

// match is a vocabulary hit: tokens first..last (inclusive) name entries.
type match struct {
	first, last int
	entries     []int
}

// match finds the leftmost-longest, non-overlapping vocabulary hits in
// toks. It walks the token trie from each position, so its cost is
// linear in the text times the longest alias (a handful of tokens), and
// independent of the vocabulary's size.
// ids are the tokens' ids in the trie's token-id space (vocab.tokenIDs).
// The hits are appended to out, whose array is reused across abstracts.
func (v *trie) match(out []match, toks []token, ids []uint32) []match {
	for i := 0; i < len(toks); {
		best, bestLast := []int(nil), -1
		node := uint32(0)
		for j := i; j < len(toks) && j-i < v.maxLen; j++ {
			id := ids[j]
			if id == 0 {
				break
			}
			if node == 0 {
				node = v.root[id]
			} else {
				node = v.children.get(uint64(node)<<32 | uint64(id))
			}
			if node == 0 {
				break
			}
			if t := v.term[node]; t > 0 {
				e := &v.ends[t-1]
				hits := e.entries
				if e.aliases != nil {
					hits = accept(e.aliases, toks[i:j+1])
				}
				if len(hits) > 0 {
					best, bestLast = hits, j
				}
			}
		}
		if best == nil {
			i++
			continue
		}
		out = append(out, match{first: i, last: bestLast, entries: best})
		i = bestLast + 1
	}
	return out
}

// accept returns the entries of aliases whose case rule the tokens meet.
func accept(aliases []alias, toks []token) []int {
	if len(aliases) == 1 && aliases[0].exact == "" {
		// The common case, without allocating.
		return aliases[0].entries
	}
	var out []int
	for _, a := range aliases {
		if a.exact != "" {
			if len(toks) == 1 && toks[0].text != a.exact && singular(toks[0].text) != a.exact ||
				len(toks) > 1 && tokenTexts(toks) != a.exact {
				continue
			}
		}
		dup := false
		for _, e := range out {
			if e == a.entry {
				dup = true
			}
		}
		if !dup {
			out = append(out, a.entry)
		}
	}
	return out
}
