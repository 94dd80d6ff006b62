package graph

// Bounds of the taxonomy that SharingQuery.Family follows, in both
// stores: part of what a family is.
const (
	FamilyDepth = 4  // levels followed up (broader) or down (narrower)
	FamilySize  = 64 // entities in one walk
)

// FamilyWalk returns the entities reachable from id within depth levels
// through next, which calls yield with each neighbour of u one way in the
// taxonomy (broader or narrower entities, by id): nearest first, at most
// FamilySize of them, without id. Both stores make a family's groups with
// it, so that they agree on which entities a capped walk keeps.
func FamilyWalk(id string, depth int, next func(u string, yield func(v string))) []string {
	seen := map[string]bool{id: true}
	var out []string
	frontier := []string{id}
	for level := 0; level < depth && len(frontier) > 0; level++ {
		var nxt []string
		for _, u := range frontier {
			next(u, func(v string) {
				if !seen[v] && len(out) < FamilySize {
					seen[v] = true
					out = append(out, v)
					nxt = append(nxt, v)
				}
			})
		}
		frontier = nxt
	}
	return out
}
