package graph

import "slices"

// Corrections maps a corrected entity id (an entity merged into another,
// or an alias made a name of another) to the entity, kind and name, it
// resolves to: what a curator's merges and aliases leave behind, so that
// papers ingested later are linked as the curator decided. Both stores
// keep them and apply them to every paper they are given.
type Corrections map[string]Entity

// Apply returns p with every entity, ancestor, broader name and mention
// that a correction resolves elsewhere replaced by its target; p itself
// when none does. id returns the id of an entity (EntityID, or a memo of
// it). A replaced entity keeps its name as an alias of the
// target, and its broader names only when the target is of its kind
// (broader names are of the entity's kind).
func (c Corrections) Apply(p *Paper, id func(Kind, string) string) *Paper {
	if len(c) == 0 || !c.touches(p, id) {
		return p
	}
	q := *p
	fix := func(es []Entity) []Entity {
		if es == nil {
			return nil
		}
		out := make([]Entity, len(es))
		for i, e := range es {
			out[i] = c.entity(e, id)
		}
		return out
	}
	q.Entities, q.Ancestors = fix(p.Entities), fix(p.Ancestors)
	q.Mentions = slices.Clone(p.Mentions)
	for i := range q.Mentions {
		m := &q.Mentions[i]
		if t, ok := c[id(m.Kind, m.Entity)]; ok {
			m.Kind, m.Entity = t.Kind, t.Name
		}
	}
	return &q
}

// touches reports whether a correction applies to p.
func (c Corrections) touches(p *Paper, id func(Kind, string) string) bool {
	for _, list := range [][]Entity{p.Entities, p.Ancestors} {
		for _, e := range list {
			if _, ok := c[id(e.Kind, e.Name)]; ok {
				return true
			}
			for _, b := range e.Broader {
				if _, ok := c[id(e.Kind, b)]; ok {
					return true
				}
			}
		}
	}
	for _, m := range p.Mentions {
		if _, ok := c[id(m.Kind, m.Entity)]; ok {
			return true
		}
	}
	return false
}

// entity returns e as the corrections resolve it.
func (c Corrections) entity(e Entity, id func(Kind, string) string) Entity {
	if t, ok := c[id(e.Kind, e.Name)]; ok {
		r := Entity{Kind: t.Kind, Name: t.Name}
		if e.Name != t.Name {
			r.Aliases = append([]string{e.Name}, e.Aliases...)
		} else {
			r.Aliases = slices.Clone(e.Aliases)
		}
		if t.Kind == e.Kind {
			r.Broader = e.Broader
		}
		e = r
	}
	var broader []string
	for _, b := range e.Broader {
		if t, ok := c[id(e.Kind, b)]; ok {
			if t.Kind != e.Kind {
				continue
			}
			b = t.Name
		}
		broader = append(broader, b)
	}
	e.Broader = broader
	return e
}
