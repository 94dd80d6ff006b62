package dgraph

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dgraph-io/dgo/v250"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/papergraph/papergraph/graph"
	"github.com/papergraph/papergraph/graph/dgraph/schema"
)

// Options configures Open.
type Options struct {
	// Batch is the number of papers PutPapers writes in one transaction;
	// 0 means DefaultBatch.
	Batch int
}

// DefaultBatch is Options.Batch's default: papers per upsert.
const DefaultBatch = 200

// maxResponse bounds the size of a query's response, in bytes.
const maxResponse = 256 << 20

// Store is the graph in a Dgraph cluster. It is safe for concurrent use by
// multiple goroutines, and by many processes over one cluster.
type Store struct {
	dg    *dgo.Dgraph
	batch int
}

// Open connects to the alpha at addr (HOST:9080; several separated by
// commas are used round-robin) and sets the schema, which is idempotent.
func Open(ctx context.Context, addr string, opts Options) (*Store, error) {
	var (
		dg  *dgo.Dgraph
		err error
	)
	// Plain gRPC, as a cluster inside one network is run; TLS and ACLs
	// would be options here.
	plain := dgo.WithGrpcOption(grpc.WithTransportCredentials(insecure.NewCredentials()))
	// A page of the whole graph's export (exportPage papers with their
	// entities) can pass gRPC's default 4 MB.
	large := dgo.WithGrpcOption(grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxResponse)))
	if addrs := strings.Split(addr, ","); len(addrs) > 1 {
		dg, err = dgo.NewRoundRobinClient(addrs, plain, large)
	} else {
		dg, err = dgo.NewClient(addr, plain, large)
	}
	if err != nil {
		return nil, fmt.Errorf("dgraph %s: %w", addr, err)
	}
	// A fresh alpha refuses schema changes until it has a leader.
	var serr error
	for try := 0; try < 60; try++ {
		if serr = dg.SetSchema(ctx, schema.DQL); serr == nil {
			break
		}
		select {
		case <-ctx.Done():
			dg.Close()
			return nil, fmt.Errorf("dgraph %s: set schema: %w", addr, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
	if serr != nil {
		dg.Close()
		return nil, fmt.Errorf("dgraph %s: set schema: %w", addr, serr)
	}
	b := opts.Batch
	if b <= 0 {
		b = DefaultBatch
	}
	return &Store{dg: dg, batch: b}, nil
}

// Close closes the connections.
func (s *Store) Close() error {
	s.dg.Close()
	return nil
}

// Generation returns 1, always: other servers over the cluster write
// without this one knowing, so nothing may be cached between writes (an
// odd generation is a write under way; see server.Store).
func (s *Store) Generation() uint64 { return 1 }

// query runs q with vars in a read-only transaction and decodes the JSON
// response into out. One exported method is one query, one snapshot.
func (s *Store) query(ctx context.Context, q string, vars map[string]string, out any) error {
	txn := s.dg.NewReadOnlyTxn()
	defer txn.Discard(ctx)
	return queryTxn(ctx, txn, q, vars, out)
}

// queryTxn runs q with vars in txn and decodes the JSON response into
// out: the queries of a method that needs more than one share a
// transaction, so they see one snapshot.
func queryTxn(ctx context.Context, txn *dgo.Txn, q string, vars map[string]string, out any) error {
	resp, err := txn.QueryWithVars(ctx, q, vars)
	if err != nil {
		return fmt.Errorf("dql: %w", err)
	}
	if err := json.Unmarshal(resp.Json, out); err != nil {
		return fmt.Errorf("dql response: %w", err)
	}
	return nil
}

// node is a paper or entity node as the queries return it.
type node struct {
	UID     string   `json:"uid"`
	ID      string   `json:"pg.id"`
	Kind    int      `json:"pg.kind"`
	Name    string   `json:"pg.name"`
	Aliases []string `json:"pg.aliases"`
	Record  string   `json:"pg.record"`
	Broader []node   `json:"pg.broader"`
	// Narrower is ~pg.broader, Degree count(~pg.link).
	Narrower []node  `json:"narrower"`
	Degree   int     `json:"degree"`
	Link     []node  `json:"pg.link"`
	Shared   []node  `json:"shared"`
	Score    float64 `json:"score"`
	Rank     float64 `json:"rank"`
	Count    int     `json:"count"`
}

// entityFields selects what entity() needs.
const entityFields = `uid pg.id pg.kind pg.name pg.aliases degree: count(~pg.link)
	pg.broader { pg.name } narrower: ~pg.broader { pg.name }`

// nodeFields selects what a paper or an entity needs: a paper's entities
// are read from its edges, as the Badger store reads them.
const nodeFields = entityFields + ` pg.record
	pg.link { uid pg.id pg.kind pg.name pg.aliases degree: count(~pg.link) pg.broader { pg.name } }`

func (n *node) isPaper() bool { return n.Kind == 0 }

// paper decodes a paper node's record, with its entities complete when
// the node has its edges (nodeFields), sorted by kind then name.
func (n *node) paper() (graph.Paper, error) {
	var p graph.Paper
	if err := json.Unmarshal([]byte(n.Record), &p); err != nil {
		return p, fmt.Errorf("paper %s: record: %w", n.ID, err)
	}
	if len(n.Link) > 0 {
		p.Entities = p.Entities[:0]
		for i := range n.Link {
			p.Entities = append(p.Entities, n.Link[i].entity())
		}
	}
	slices.SortFunc(p.Entities, func(a, b graph.Entity) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return p, nil
}

// entity returns an entity node as the Badger store reads it back:
// aliases and taxonomy sorted, since Dgraph keeps lists as sets.
func (n *node) entity() graph.Entity {
	e := graph.Entity{Kind: graph.Kind(n.Kind), Name: n.Name, Aliases: n.Aliases, PaperCount: n.Degree}
	for _, b := range n.Broader {
		e.Broader = append(e.Broader, b.Name)
	}
	for _, b := range n.Narrower {
		e.Narrower = append(e.Narrower, b.Name)
	}
	sortStrings(e.Aliases)
	sortStrings(e.Broader)
	sortStrings(e.Narrower)
	return e
}

// graphNode converts n to a Subgraph node.
func (n *node) graphNode() (graph.Node, error) {
	if n.isPaper() {
		p, err := n.paper()
		return graph.Node{Paper: &p}, err
	}
	e := n.entity()
	return graph.Node{Entity: &e}, nil
}

// quoteList returns ids as a DQL list literal, ["a", "b"], for eq(); ids
// are checked paper or entity ids, JSON-quoted.
func quoteList(ids []string) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

// DropAll deletes every node and sets the schema again: an empty graph,
// for tests and for a fresh load.
func (s *Store) DropAll(ctx context.Context) error {
	if err := s.dg.DropAll(ctx); err != nil {
		return fmt.Errorf("dgraph: drop all: %w", err)
	}
	if err := s.dg.SetSchema(ctx, schema.DQL); err != nil {
		return fmt.Errorf("dgraph: set schema: %w", err)
	}
	return nil
}

// Snapshot returns ctx unchanged and a release that does nothing: each
// read here is a read-only transaction of its own, so unlike the Badger
// store's, the fields of one GraphQL response may see different states
// while another server writes.
func (s *Store) Snapshot(ctx context.Context) (context.Context, func()) { return ctx, func() {} }
