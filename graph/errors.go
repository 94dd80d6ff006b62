package graph

import "errors"

// Sentinel errors. Callers test them with errors.Is; messages wrap them with
// the operand.
var (
	// ErrNotFound: no paper or entity with that id or name.
	ErrNotFound = errors.New("not found")
	// ErrBadID: an id that is neither a paper id nor kind:name.
	ErrBadID = errors.New("bad id")
	// ErrBadKind: a kind name other than task, modality, dataset, technique.
	ErrBadKind = errors.New("bad kind")
	// ErrBadArgument: an argument out of its documented range.
	ErrBadArgument = errors.New("bad argument")
	// ErrNewerFormat: the database was written by a newer papergraph.
	ErrNewerFormat = errors.New("database written by a newer format")
	// ErrOlderFormat: the database was written by an older papergraph,
	// whose format this one does not read; it has to be built again.
	ErrOlderFormat = errors.New("database written by an older format")
	// ErrLocked: another process has the database open.
	ErrLocked = errors.New("database is in use by another process")
	// ErrBadCursor: a page cursor this store did not hand out.
	ErrBadCursor = errors.New("bad cursor")
	// ErrNotEmpty: a bulk load was asked of a store that holds data.
	ErrNotEmpty = errors.New("store is not empty")
	// ErrNoSpace: the database's disk has too little space left to write.
	ErrNoSpace = errors.New("not enough free disk space")
)
