// Package seeds embeds the seed abstracts, so that serve on an empty
// database can build the graph without any file beside the binary.
package seeds

import "embed"

// FS holds the seed files, *.txt, at its root.
//
//go:embed *.txt
var FS embed.FS
