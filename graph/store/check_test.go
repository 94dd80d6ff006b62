package store

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/papergraph/papergraph/corpus"
	"github.com/papergraph/papergraph/graph"
)

// TestCheckFindsDamage damages a consistent store one key at a time, as a
// bug or a torn write would, and expects Check to name the damage.
func TestCheckFindsDamage(t *testing.T) {
	p := graph.Paper{
		ID: corpus.PaperID(1), Label: "Dolphin", Abstract: "Dolphin agents solve GSM8K problems.",
		Source: "a.txt", Index: 1,
		Entities: []graph.Entity{{Kind: graph.Dataset, Name: "GSM8K"}, {Kind: graph.Dataset, Name: "OSWorld-G", Broader: []string{"OSWorld"}}},
	}
	u64 := func(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }
	tests := []struct {
		name   string
		damage func(txn *badger.Txn) error
		want   string // a substring of one violation
	}{
		{"missing reverse edge", func(txn *badger.Txn) error {
			return txn.Delete(entityEdgeKey("dataset:gsm8k", p.ID))
		}, "reverse 0x04 missing"},
		{"missing forward edge", func(txn *badger.Txn) error {
			return txn.Set(edgesKey(p.ID), appendEdges(nil, idKinds("dataset:osworld-g")))
		}, "reverse 0x03 missing"},
		{"edge to a missing entity", func(txn *badger.Txn) error {
			return txn.Delete(entityKey("dataset:gsm8k"))
		}, "entity missing"},
		{"edge to a missing paper", func(txn *badger.Txn) error {
			if err := txn.Set(edgesKey(corpus.PaperID(2)), appendEdges(nil, idKinds("dataset:gsm8k"))); err != nil {
				return err
			}
			return txn.Set(entityEdgeKey("dataset:gsm8k", corpus.PaperID(2)), nil)
		}, "paper missing"},
		{"wrong degree", func(txn *badger.Txn) error {
			return txn.Set(degreeKey("dataset:gsm8k"), u64(5))
		}, "degree dataset:gsm8k = 5"},
		{"stale top key", func(txn *badger.Txn) error {
			return txn.Set(topKey(graph.Dataset, 3, "dataset:gsm8k"), nil)
		}, "top dataset:gsm8k: more than one key"},
		{"missing top key", func(txn *badger.Txn) error {
			return txn.Delete(topKey(graph.Dataset, 1, "dataset:gsm8k"))
		}, "top dataset:gsm8k: missing"},
		{"wrong counter", func(txn *badger.Txn) error {
			return txn.Set(counterKey(counterEdges), u64(7))
		}, "counter edges = 7"},
		{"one-way taxonomy", func(txn *badger.Txn) error {
			return txn.Delete(narrowerKey("dataset:osworld", "dataset:osworld-g"))
		}, "broader dataset:osworld-g -> dataset:osworld: reverse key missing"},
		{"stray posting", func(txn *badger.Txn) error {
			var id paperKeyID
			copy(id[:], p.ID)
			return txn.Set(postingKey("zebra", 1), appendPostings(nil, []posting{{id, 1}}))
		}, `term "zebra": document frequency 0, 1 postings`},
		{"lost posting", func(txn *badger.Txn) error {
			return txn.Delete(postingKey("dolphin", 1))
		}, "postings"},
		{"source to a missing paper", func(txn *badger.Txn) error {
			return txn.Set(sourceKey("b.txt", 3), []byte(corpus.PaperID(9)))
		}, "source b.txt #3"},
		{"record and edges disagree", func(txn *badger.Txn) error {
			if err := txn.Set(edgesKey(p.ID), appendEdges(nil, idKinds("dataset:gsm8k", "dataset:osworld", "dataset:osworld-g"))); err != nil {
				return err
			}
			return txn.Set(entityEdgeKey("dataset:osworld", p.ID), nil)
		}, "record lists entities"},
		{"name of a missing entity", func(txn *badger.Txn) error {
			return txn.Set(stemKey("gone", "dataset:gone"), nil)
		}, `name "gone" (prefix 0x10) -> dataset:gone: entity missing`},
		{"correction from an entity", func(txn *badger.Txn) error {
			return txn.Set(correctionKey("dataset:gsm8k"), []byte("dataset:osworld"))
		}, "correction dataset:gsm8k -> dataset:osworld: entity dataset:gsm8k exists = true"},
		{"correction to a missing entity", func(txn *badger.Txn) error {
			return txn.Set(correctionKey("dataset:x"), []byte("dataset:gone"))
		}, "correction dataset:x -> dataset:gone: entity dataset:gone exists = false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			put(t, s, p)
			mustCheck(t, s)
			if err := s.db.Update(tt.damage); err != nil {
				t.Fatal(err)
			}
			got, err := s.Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(got, "\n"), tt.want) {
				t.Errorf("Check() = %q; want a violation containing %q", got, tt.want)
			}
		})
	}
}

func TestCheckCapsViolations(t *testing.T) {
	s := openTest(t)
	err := s.db.Update(func(txn *badger.Txn) error {
		for i := range maxViolations + 10 {
			if err := txn.Set(sourceKey("x", i), []byte(corpus.PaperID(uint64(i)))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != maxViolations+1 || got[len(got)-1] != "... and 10 more violations" {
		t.Errorf("Check() returned %d lines ending %q; want %d ending with the rest counted", len(got), got[len(got)-1], maxViolations+1)
	}
}
