// Package dgraphtest starts a real single-node Dgraph cluster (one zero,
// one alpha) for tests, on loopback ports of its own in a temporary
// directory. The binary comes from $PAPERGRAPH_DGRAPH, else `dgraph` on
// PATH (.ci/run builds it with ../shared/dgraph/build.sh); without one the
// test is skipped.
//
//	c := dgraphtest.Start(tb) // zero and alpha
//	st, err := dgraph.Open(ctx, c.Addr, dgraph.Options{})
package dgraphtest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Binary returns the dgraph binary to run, "" when there is none.
func Binary() string {
	if b := os.Getenv("PAPERGRAPH_DGRAPH"); b != "" {
		return b
	}
	b, _ := exec.LookPath("dgraph")
	return b
}

// Cluster is a running zero, and an alpha once Alpha was called.
type Cluster struct {
	tb     testing.TB
	bin    string
	dir    string
	offset int
	// Addr is the alpha's gRPC address (HOST:PORT) once it runs.
	Addr string
}

// Start returns a cluster with its zero and alpha running, stopped at the
// end of the test; it skips the test when there is no binary.
func Start(tb testing.TB) *Cluster {
	c := Zero(tb)
	c.Alpha("")
	return c
}

// Zero returns a cluster with only its zero running, for Bulk before
// Alpha.
func Zero(tb testing.TB) *Cluster {
	tb.Helper()
	bin := Binary()
	if bin == "" {
		tb.Skip("no Dgraph binary: set PAPERGRAPH_DGRAPH or put dgraph on PATH (../shared/dgraph/build.sh OUT builds one)")
	}
	c := &Cluster{tb: tb, bin: bin, dir: tb.TempDir(), offset: freeOffset(tb)}
	c.start("zero", "zero", "--my=127.0.0.1:"+c.port(5080), "--bindall=false", "-o", strconv.Itoa(c.offset),
		"--wal", filepath.Join(c.dir, "zw"), "--telemetry", "reports=false; sentry=false;")
	c.wait("http://127.0.0.1:" + c.port(6080) + "/health")
	return c
}

// Bulk loads the gzipped N-Quads file rdf with the DQL schema file schema
// by `dgraph bulk`, into the directory the alpha will start on.
func (c *Cluster) Bulk(rdf, schema string) {
	c.tb.Helper()
	cmd := exec.Command(c.bin, "bulk", "-f", rdf, "-s", schema, "--zero", "127.0.0.1:"+c.port(5080),
		"--out", filepath.Join(c.dir, "out"), "--tmp", filepath.Join(c.dir, "bulktmp"),
		"--map_shards", "1", "--reduce_shards", "1", "-j", "1")
	cmd.Dir = c.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		c.tb.Fatalf("dgraph bulk: %v\n%s", err, tail(out))
	}
}

// Alpha starts the alpha, on the bulk loader's output when p is "bulk",
// and sets Addr.
func (c *Cluster) Alpha(p string) {
	c.tb.Helper()
	pdir := filepath.Join(c.dir, "p")
	if p == "bulk" {
		pdir = filepath.Join(c.dir, "out", "0", "p")
	}
	c.start("alpha", "alpha", "--my=127.0.0.1:"+c.port(7080), "--zero=127.0.0.1:"+c.port(5080), "--bindall=false",
		"-o", strconv.Itoa(c.offset), "-p", pdir, "-w", filepath.Join(c.dir, "w"), "--tmp", filepath.Join(c.dir, "t"),
		"--cache", "size-mb=256;", "--security", "whitelist=127.0.0.1;", "--telemetry", "reports=false; sentry=false;")
	c.wait("http://127.0.0.1:" + c.port(8080) + "/health")
	c.Addr = "127.0.0.1:" + c.port(9080)
}

func (c *Cluster) port(base int) string { return strconv.Itoa(base + c.offset) }

// start runs dgraph ARGS with its log in DIR/NAME.log, killed at cleanup.
func (c *Cluster) start(name string, args ...string) {
	c.tb.Helper()
	log, err := os.Create(filepath.Join(c.dir, name+".log"))
	if err != nil {
		c.tb.Fatal(err)
	}
	cmd := exec.Command(c.bin, args...)
	cmd.Dir = c.dir
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		c.tb.Fatalf("start dgraph %s: %v", name, err)
	}
	c.tb.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		log.Close()
		if c.tb.Failed() && os.Getenv("PAPERGRAPH_DGRAPH_LOGS") != "" {
			if b, err := os.ReadFile(log.Name()); err == nil {
				c.tb.Logf("dgraph %s log:\n%s", name, tail(b))
			}
		}
	})
}

// wait polls url until it answers 200, for up to a minute.
func (c *Cluster) wait(url string) {
	c.tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	c.tb.Fatalf("dgraph: %s not healthy after a minute (logs in %s)", url, c.dir)
}

// freeOffset returns a port offset at which all five ports are free.
func freeOffset(tb testing.TB) int {
	for try := 0; try < 50; try++ {
		o := 1000 + rand.IntN(400)*10
		free := true
		for _, base := range []int{5080, 6080, 7080, 8080, 9080} {
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+o))
			if err != nil {
				free = false
				break
			}
			ln.Close()
		}
		if free {
			return o
		}
	}
	tb.Fatal("dgraph: no free port offset")
	return 0
}

func tail(b []byte) string {
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return fmt.Sprintf("%s", b)
}
