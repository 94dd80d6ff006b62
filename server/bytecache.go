package server

import (
	"container/list"
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
)

// byteLRU is a least-recently-used cache bounded both in entries and in
// bytes, the size of each entry as its size function estimates it. A
// count alone bounds nothing: 1,000 parsed documents of 1 MiB each would
// pin about 18 GB. An entry over an eighth of the byte bound is not kept,
// so that one cannot empty the cache of the others.
//
// A byteLRU is safe for concurrent use by multiple goroutines.
type byteLRU[V any] struct {
	maxEntries int
	maxBytes   int64
	size       func(key string, v V) int64

	mu    sync.Mutex
	bytes int64
	order *list.List // of *byteEntry[V], most recently used first
	items map[string]*list.Element
}

type byteEntry[V any] struct {
	key   string
	value V
	bytes int64
}

var _ graphql.Cache[string] = (*byteLRU[string])(nil)

func newByteLRU[V any](maxEntries int, maxBytes int64, size func(key string, v V) int64) *byteLRU[V] {
	return &byteLRU[V]{maxEntries: maxEntries, maxBytes: maxBytes, size: size, order: list.New(), items: map[string]*list.Element{}}
}

// Get returns the value of key and reports whether there was one.
func (c *byteLRU[V]) Get(_ context.Context, key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*byteEntry[V]).value, true
}

// Add keeps v under key, dropping the least recently used entries past
// the bounds.
func (c *byteLRU[V]) Add(_ context.Context, key string, v V) {
	n := c.size(key, v)
	if n > c.maxBytes/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.remove(el)
	}
	c.items[key] = c.order.PushFront(&byteEntry[V]{key: key, value: v, bytes: n})
	c.bytes += n
	for c.bytes > c.maxBytes || len(c.items) > c.maxEntries {
		c.remove(c.order.Back())
	}
}

// remove drops el; c.mu is held.
func (c *byteLRU[V]) remove(el *list.Element) {
	e := c.order.Remove(el).(*byteEntry[V])
	delete(c.items, e.key)
	c.bytes -= e.bytes
}

// Bytes returns the sum of the sizes of the entries kept.
func (c *byteLRU[V]) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
