package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// runVersion prints the module version, the VCS revision and commit time
// the binary was built from (with "+modified" when the work tree had
// uncommitted changes), and the Go version: what `go build` records in a
// checkout (see debug.BuildInfo; -buildvcs=false or a build outside one
// leaves the revision out).
func runVersion(stdout io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stdout, "papergraph (unknown version)")
		return nil
	}
	fmt.Fprintln(stdout, versionLine(info))
	return nil
}

// versionLine formats info as "papergraph VERSION [REVISION[+modified]
// TIME] GOVERSION".
func versionLine(info *debug.BuildInfo) string {
	var rev, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	line := "papergraph " + info.Main.Version
	if rev != "" {
		line += " " + rev + modified
		if at != "" {
			line += " " + at
		}
	}
	return line + " " + info.GoVersion
}
