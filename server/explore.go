package server

import (
	"embed"
	"io/fs"
	"net/http"
)

// exploreFiles is the explorer app: plain ES modules and a stylesheet,
// no build step and no dependency, embedded so that it needs no network.
// It uses only /query and /export/, as any frontend would.
//
//go:embed explore
var exploreFiles embed.FS

// explore serves the explorer: its page at /explore and its modules and
// styles under /explore/.
func explore() http.Handler {
	files, _ := fs.Sub(exploreFiles, "explore")
	fsrv := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The modules change with the binary only, but a module graph
		// cached across an upgrade mixes versions: revalidate each time
		// (a 304 is cheap, and the files are embedded with a fixed time).
		w.Header().Set("Cache-Control", "no-cache")
		if r.URL.Path == "/explore" || r.URL.Path == "/explore/" {
			http.ServeFileFS(w, r, files, "index.html")
			return
		}
		http.StripPrefix("/explore/", fsrv).ServeHTTP(w, r)
	})
}
