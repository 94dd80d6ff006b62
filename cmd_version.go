package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

func runVersion(stdout io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stdout, "papergraph (unknown version)")
		return nil
	}
	fmt.Fprintf(stdout, "papergraph %s %s\n", info.Main.Version, info.GoVersion)
	return nil
}
