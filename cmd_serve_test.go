package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// lockedBuffer is a bytes.Buffer for a server's log, written by its
// goroutines and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serving is `papergraph serve` running inside the test on a free port.
type serving struct {
	url  string // http://127.0.0.1:port, no final slash
	logs *lockedBuffer
	stop func() error // cancels serve's context and waits for it to return
}

var servingURL = regexp.MustCompile(`(?:msg=serving url=|"msg":"serving","url":")(http://[0-9.:]+)/`)

// startServe runs `papergraph serve --addr 127.0.0.1:0 args...` as main
// would, and waits until it listens.
func startServe(t *testing.T, args ...string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), io.Discard, logs)
	}()
	var once sync.Once
	var stopErr error
	s := &serving{logs: logs, stop: func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(time.Minute):
				stopErr = errors.New("serve did not return within a minute of its context's end")
			}
		})
		return stopErr
	}}
	t.Cleanup(func() { s.stop() })
	// Building the seed graph first takes a second here; allow for a
	// machine far slower than that.
	deadline := time.After(3 * time.Minute)
	for {
		if m := servingURL.FindStringSubmatch(logs.String()); m != nil {
			s.url = m[1]
			return s
		}
		select {
		case err := <-done:
			t.Fatalf("serve returned %v before listening; log:\n%s", err, logs)
		case <-deadline:
			t.Fatalf("serve not listening after 3 minutes; log:\n%s", logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// gqlResult is a GraphQL response.
type gqlResult struct {
	Data   json.RawMessage
	Errors []struct {
		Message    string
		Extensions struct{ Code string }
	}
}

// query posts a GraphQL query to s and decodes the data into out (when not
// nil), failing on any error in the response.
func (s *serving) query(t *testing.T, q string, vars map[string]any, out any, header ...string) {
	t.Helper()
	r := s.post(t, q, vars, header...)
	if len(r.Errors) > 0 {
		t.Fatalf("query %s: errors %+v", q, r.Errors)
	}
	if out != nil {
		if err := json.Unmarshal(r.Data, out); err != nil {
			t.Fatalf("query %s: %v in %s", q, err, r.Data)
		}
	}
}

func (s *serving) post(t *testing.T, q string, vars map[string]any, header ...string) gqlResult {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
	req, err := http.NewRequest(http.MethodPost, s.url+"/query", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for _, h := range header {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r gqlResult
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("query %s: status %d, %v", q, resp.StatusCode, err)
	}
	return r
}

func (s *serving) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(s.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

var seededCount = regexp.MustCompile(`built the graph from (\d+) embedded seed papers`)

// findPaper returns the id of the paper whose name is name, by search.
func (s *serving) findPaper(t *testing.T, name string) string {
	t.Helper()
	var data struct {
		Search []struct {
			Node struct{ ID, Name string }
		}
	}
	s.query(t, `query($q: String!) { search(query: $q, first: 5) { node { id ... on Paper { name } } } }`, map[string]any{"q": name}, &data)
	for _, h := range data.Search {
		if h.Node.Name == name {
			return h.Node.ID
		}
	}
	t.Fatalf("search(%q) has no paper named so: %+v", name, data.Search)
	return ""
}

type idOnly struct{ ID string }

func ids(xs []idOnly) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.ID
	}
	slices.Sort(out)
	return out
}

// TestServeSeeds runs serve on an empty database: it builds the graph
// from the embedded seeds with the real extractor and answers queries on
// it, then restarts on the same database.
func TestServeSeeds(t *testing.T) {
	db := t.TempDir()
	t.Setenv("PAPERGRAPH_WRITE_TOKEN", "t0ken")
	s := startServe(t, "--db", db)
	m := seededCount.FindStringSubmatch(s.logs.String())
	if m == nil {
		t.Fatalf("log does not say the graph is built from the seeds:\n%s", s.logs)
	}
	seeded, _ := strconv.Atoi(m[1])

	t.Run("stats", func(t *testing.T) {
		var data struct {
			Stats struct{ Papers, Edges, Entities int }
		}
		s.query(t, `{ stats { papers edges entities } }`, nil, &data)
		if data.Stats.Papers != seeded || data.Stats.Edges == 0 || data.Stats.Entities == 0 {
			t.Errorf("stats = %+v; want %d papers, some edges and entities", data.Stats, seeded)
		}
	})

	scaleCUA, videoAgentTrek := s.findPaper(t, "ScaleCUA"), s.findPaper(t, "VideoAgentTrek")

	t.Run("papersSharing through the taxonomy", func(t *testing.T) {
		type match struct {
			Paper  idOnly
			Shared []idOnly
		}
		var data struct{ Direct, Family []match }
		s.query(t, `query($p: ID!) {
			direct: papersSharing(paper: $p) { paper { id } shared { id } }
			family: papersSharing(paper: $p, family: true) { paper { id } shared { id } } }`,
			map[string]any{"p": scaleCUA}, &data)
		i := slices.IndexFunc(data.Family, func(m match) bool { return m.Paper.ID == videoAgentTrek })
		if i < 0 {
			t.Fatalf("papersSharing(ScaleCUA, family: true) = %+v; want VideoAgentTrek %s", data.Family, videoAgentTrek)
		}
		if shared := ids(data.Family[i].Shared); !slices.Contains(shared, "dataset:osworld") {
			t.Errorf("ScaleCUA and VideoAgentTrek share %q; want dataset:osworld", shared)
		}
		if slices.ContainsFunc(data.Direct, func(m match) bool { return m.Paper.ID == videoAgentTrek }) {
			t.Errorf("papersSharing(ScaleCUA) without family lists VideoAgentTrek: %+v", data.Direct)
		}
	})

	// The stored paper, extract's output on its abstract, its
	// neighbourhood and a path through it all agree.
	t.Run("consistent with extract", func(t *testing.T) {
		var stored struct {
			Paper struct {
				Title, Abstract string
				Entities        []idOnly
			}
		}
		s.query(t, `query($p: ID!) { paper(id: $p) { title abstract entities { id } } }`, map[string]any{"p": scaleCUA}, &stored)
		var extracted struct {
			Extract struct {
				ID       string
				Entities []idOnly
			}
		}
		s.query(t, `query($t: String!) { extract(text: $t) { id entities { id } } }`,
			map[string]any{"t": stored.Paper.Abstract}, &extracted)
		want := ids(stored.Paper.Entities)
		if extracted.Extract.ID != scaleCUA || !slices.Equal(ids(extracted.Extract.Entities), want) {
			t.Errorf("extract(ScaleCUA's abstract) = %s %q; want %s %q", extracted.Extract.ID, ids(extracted.Extract.Entities), scaleCUA, want)
		}

		var nb struct{ Neighborhood struct{ Nodes []idOnly } }
		s.query(t, `query($p: ID!) { neighborhood(id: $p) { nodes { id } } }`, map[string]any{"p": scaleCUA}, &nb)
		wantNodes := append(slices.Clone(want), scaleCUA)
		slices.Sort(wantNodes)
		if got := ids(nb.Neighborhood.Nodes); !slices.Equal(got, wantNodes) {
			t.Errorf("neighborhood(ScaleCUA) = %q; want the paper and its entities %q", got, wantNodes)
		}

		var p struct {
			Path *struct {
				Nodes []idOnly
				Edges []struct{ From, To, Kind string }
			}
		}
		s.query(t, `query($a: ID!, $b: ID!) { path(from: $a, to: $b) { nodes { id } edges { from to kind } } }`,
			map[string]any{"a": scaleCUA, "b": videoAgentTrek}, &p)
		if p.Path == nil {
			t.Fatal("no path between ScaleCUA and VideoAgentTrek")
		}
		nodes := ids(p.Path.Nodes)
		if !slices.Contains(nodes, scaleCUA) || !slices.Contains(nodes, videoAgentTrek) || len(p.Path.Edges) != len(nodes)-1 {
			t.Errorf("path = %+v; want a chain from ScaleCUA to VideoAgentTrek", p.Path)
		}
		for _, e := range p.Path.Edges {
			if e.From == scaleCUA && !slices.Contains(want, e.To) {
				t.Errorf("path edge %+v: ScaleCUA's extraction has no %s", e, e.To)
			}
		}
	})

	t.Run("taxonomy", func(t *testing.T) {
		var data struct {
			Entity struct {
				ID       string
				Narrower []idOnly
			}
		}
		s.query(t, `{ entity(kind: DATASET, name: "osworld") { id narrower { id } } }`, nil, &data)
		narrower := ids(data.Entity.Narrower)
		if data.Entity.ID != "dataset:osworld" || !slices.Contains(narrower, "dataset:osworld-g") || !slices.Contains(narrower, "dataset:osworld-verified") {
			t.Errorf("entity(DATASET, osworld) = %+v; want narrower OSWorld-G and OSWorld-Verified", data.Entity)
		}
	})

	t.Run("errors", func(t *testing.T) {
		if r := s.post(t, `{ paper(id: "nope") { id } }`, nil); len(r.Errors) != 1 || r.Errors[0].Extensions.Code != "BAD_USER_INPUT" {
			t.Errorf("paper(id: nope): errors %+v; want BAD_USER_INPUT", r.Errors)
		}
	})

	const add = `mutation($a: String!) { addPapers(input: [{title: "A new agent", abstract: $a}]) { added papers { id datasets { name } } } }`
	abstract := map[string]any{"a": "We evaluate our computer-use agent on OSWorld and report state-of-the-art success rates."}
	t.Run("writes", func(t *testing.T) {
		if r := s.post(t, add, abstract); len(r.Errors) != 1 || r.Errors[0].Extensions.Code != "UNAUTHENTICATED" {
			t.Errorf("addPapers without the token: errors %+v; want UNAUTHENTICATED", r.Errors)
		}
		var data struct {
			AddPapers struct {
				Added  int
				Papers []struct {
					ID       string
					Datasets []struct{ Name string }
				}
			}
		}
		s.query(t, add, abstract, &data, "Authorization: Bearer t0ken")
		if data.AddPapers.Added != 1 || len(data.AddPapers.Papers) != 1 || !slices.ContainsFunc(data.AddPapers.Papers[0].Datasets, func(d struct{ Name string }) bool { return d.Name == "OSWorld" }) {
			t.Errorf("addPapers = %+v; want one paper added, linked to OSWorld", data.AddPapers)
		}
	})

	t.Run("health and metrics", func(t *testing.T) {
		if code, body := s.get(t, "/healthz"); code != http.StatusOK || body != "ok\n" {
			t.Errorf("GET /healthz = %d %q", code, body)
		}
		if code, body := s.get(t, "/metrics"); code != http.StatusOK || !strings.Contains(body, "papergraph_graphql_requests_total") {
			t.Errorf("GET /metrics = %d, without papergraph_graphql_requests_total", code)
		}
	})

	if err := s.stop(); err != nil {
		t.Fatalf("serve on shutdown: %v", err)
	}
	if !strings.Contains(s.logs.String(), "shutting down") {
		t.Errorf("log does not mention the shutdown:\n%s", s.logs)
	}
	if _, err := http.Get(s.url + "/healthz"); err == nil {
		t.Error("server still answers after shutdown")
	}

	// A database with papers is served as it is.
	again := startServe(t, "--db", db)
	if strings.Contains(again.logs.String(), "database empty") {
		t.Errorf("restart on a full database rebuilt it from the seeds:\n%s", again.logs)
	}
	var data struct{ Stats struct{ Papers int } }
	again.query(t, `{ stats { papers } }`, nil, &data)
	if data.Stats.Papers != seeded+1 {
		t.Errorf("after restart, stats.papers = %d; want %d", data.Stats.Papers, seeded+1)
	}
}

// TestServeOptions checks that the flags reach the server.
func TestServeOptions(t *testing.T) {
	s := startServe(t, "--db", t.TempDir(), "--seeds-if-empty=false", "--no-introspection",
		"--cors-origin", "https://app.example", "--write-token", "flag-token")
	if strings.Contains(s.logs.String(), "database empty") {
		t.Errorf("--seeds-if-empty=false built the seed graph:\n%s", s.logs)
	}
	var data struct{ Stats struct{ Papers int } }
	s.query(t, `{ stats { papers } }`, nil, &data)
	if data.Stats.Papers != 0 {
		t.Errorf("--seeds-if-empty=false: %d papers; want 0", data.Stats.Papers)
	}
	if r := s.post(t, `{ __schema { queryType { name } } }`, nil); len(r.Errors) == 0 {
		t.Error("--no-introspection: introspection answered")
	}
	add := `mutation { addPapers(input: [{abstract: "We study OSWorld."}]) { added } }`
	if r := s.post(t, add, nil, "Authorization: Bearer flag-token"); len(r.Errors) > 0 {
		t.Errorf("--write-token: addPapers with it: %+v", r.Errors)
	}
	req, _ := http.NewRequest(http.MethodOptions, s.url+"/query", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example" {
		t.Errorf("--cors-origin: preflight Allow-Origin = %q; want https://app.example", got)
	}
}

// TestServeExtractEndsAtDeadline posts to serve, with a 1 s timeout, one
// extract of a text as long as a request body may be, which the
// extractor works through for seconds (slowText), and an addPapers of it: the client gets TIMEOUT, and
// serve's work ends within a second of the answer.
func TestServeExtractEndsAtDeadline(t *testing.T) {
	s := startServe(t, "--db", t.TempDir(), "--seeds-if-empty=false", "--timeout", "1s", "--write-token", "tok")
	text := slowText(1<<20 - 200)
	for _, q := range []string{
		`query($t: String!) { extract(text: $t) { id } }`,
		`mutation($t: String!) { addPapers(input: [{abstract: $t}]) { added } }`,
	} {
		start := time.Now()
		r := s.post(t, q, map[string]any{"t": text}, "Authorization: Bearer tok")
		took := time.Since(start)
		answered := serveCPU(t)
		time.Sleep(time.Second)
		settled := serveCPU(t)
		time.Sleep(500 * time.Millisecond)
		after := serveCPU(t) - settled
		t.Logf("%.30s...: answered in %v, CPU %v in the second after, %v in the half second after that",
			q, took.Round(time.Millisecond), settled-answered, after)
		if len(r.Errors) != 1 || r.Errors[0].Extensions.Code != "TIMEOUT" {
			t.Errorf("%.30s...: errors %+v; want one TIMEOUT", q, r.Errors)
		}
		// serve idles at a few milliseconds; the extraction, had it
		// gone on, would take what CPU the machine gives it.
		if after > 100*time.Millisecond {
			t.Errorf("%.30s...: %v of CPU in the half second from 1 s after the answer; want the request's work over", q, after)
		}
	}
}

// serveCPU returns the CPU time (user and system) of the test process, in
// which serve runs.
func serveCPU(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Skipf("no getrusage to measure CPU time: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestServeFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"argument", []string{"serve", "extra"}},
		{"unknown flag", []string{"serve", "--colour"}},
		{"missing assets", []string{"serve", "--playground-assets", filepath.Join(t.TempDir(), "none")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if err := run(context.Background(), tt.args, strings.NewReader(""), io.Discard, &stderr); err == nil {
				t.Errorf("run(%q) = nil; want an error", tt.args)
			}
		})
	}
}

// TestPlaygroundInBrowser loads the embedded playground in headless
// Chromium, with no network but the server's, runs the prefilled example
// query with GraphiQL's run button and checks that papersSharing has
// answers on the seed graph.
func TestPlaygroundInBrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH: install Debian's chromium package to run the browser test")
	}
	s := startServe(t, "--db", t.TempDir())

	// The example query, run here, says which paper the browser must show
	// among papersSharing's answers.
	_, page := s.get(t, "/")
	m := regexp.MustCompile(`(?s)<script type="application/json" id="example">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("playground page has no example query:\n%s", page)
	}
	var example string
	if err := json.Unmarshal([]byte(m[1]), &example); err != nil {
		t.Fatalf("playground example %s: %v", m[1], err)
	}
	var data struct {
		PapersSharing []struct{ Paper struct{ Label string } }
	}
	s.query(t, example, nil, &data)
	if len(data.PapersSharing) == 0 {
		t.Fatalf("the example query has no papersSharing answers on the seed graph:\n%s", example)
	}
	want := data.PapersSharing[0].Paper.Label

	actx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// The first action starts the browser, which lives as long as its
	// context: the time limit goes on the later ones only.
	if err := chromedp.Do(ctx, chromedp.Navigate(s.url+"/")); err != nil {
		t.Fatalf("loading the playground: %v", err)
	}
	tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(tctx,
		chromedp.WaitVisible(chromedp.CSS(".graphiql-execute-button")),
		chromedp.Click(chromedp.CSS(".graphiql-execute-button")),
	); err != nil {
		t.Fatalf("clicking the run button: %v", err)
	}
	label, _ := json.Marshal(want)
	result, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => {
		// CodeMirror renders only the lines in view: read its document.
		const cm = document.querySelector(".result-window .CodeMirror");
		const text = cm && cm.CodeMirror ? cm.CodeMirror.getValue() : "";
		return text.includes(`+string(label)+`) ? text : false;
	})()`, chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Logf("the page shows:\n%s", body)
		t.Fatalf("waiting for the shared paper %s in the result pane: %v", label, err)
	}
	if !strings.Contains(result, "papersSharing") {
		t.Errorf("result pane lacks papersSharing:\n%s", result)
	}
}

// TestServeReadyJSONLogs checks /readyz once serving and the access log
// of --log-format json: one JSON object a line.
func TestServeReadyJSONLogs(t *testing.T) {
	s := startServe(t, "--db", filepath.Join(t.TempDir(), "db"), "--log-format", "json")
	resp, err := http.Get(s.url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /readyz once serving = %d; want 200", resp.StatusCode)
	}
	s.query(t, `query Count { stats { papers } }`, nil, nil)
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	var access []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s.logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if m["msg"] == "request" {
			access = append(access, m)
		}
	}
	if len(access) != 2 || access[0]["path"] != "/readyz" || access[1]["operation"] != "Count" || access[1]["status"] != 200.0 {
		t.Errorf("access log = %v; want /readyz, then the Count query with status 200", access)
	}
}
