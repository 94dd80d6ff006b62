package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var screenshots = flag.Bool("screenshots", false, "TestExploreInBrowser: write the README's screenshots of the explorer to docs/")

// browser starts headless Chromium for the test, or skips it when there
// is none. The first action on the returned context starts it.
func browser(t *testing.T) context.Context {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH: install Debian's chromium package to run the browser test")
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.WindowSize(1200, 900),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	return ctx
}

// explorerWalk is what the walk through the explorer expects to see on
// the seed graph, found through the API first.
type explorerWalk struct {
	term     string // typed into the search box: the top technique's name
	entity   string // that technique's id, among the entity results
	paper    string // a paper hit linked to it
	label    string // its label
	mentions int    // its mentions
	shared   string // the first paper sharing its techniques
	sharedAs string // its label
	next     string // an entity of the shared paper, opened from its page
	nextName string
	papers   int // how many papers the entity page lists first
	cooc     int // how many co-occurring entities it lists
}

// planWalk finds on the graph s serves the papers and entities the walk
// goes through, so that the walk asserts what the API says.
func planWalk(t *testing.T, s *serving) explorerWalk {
	t.Helper()
	var w explorerWalk
	var top struct {
		Entities struct {
			Edges []struct{ Node struct{ ID, Name string } }
		}
	}
	s.query(t, `{ entities(kind: TECHNIQUE, first: 1, orderBy: DEGREE) { edges { node { id name } } } }`, nil, &top)
	if len(top.Entities.Edges) == 0 {
		t.Fatal("the seed graph has no technique")
	}
	w.term, w.entity = top.Entities.Edges[0].Node.Name, top.Entities.Edges[0].Node.ID
	var hits struct {
		Search []struct {
			Node struct {
				ID       string
				Label    string
				Entities []struct{ ID string }
				Mentions []struct{ Start int }
			}
		}
	}
	s.query(t, `query($q: String!) { search(query: $q, first: 20) { node { id ... on Paper { label entities { id } mentions { start } } } } }`,
		map[string]any{"q": w.term}, &hits)
	for _, h := range hits.Search {
		for _, e := range h.Node.Entities {
			if e.ID == w.entity && w.paper == "" {
				w.paper, w.label, w.mentions = h.Node.ID, h.Node.Label, len(h.Node.Mentions)
			}
		}
	}
	if w.paper == "" {
		t.Fatalf("no paper hit of search(%q) links to %s", w.term, w.entity)
	}
	var sharing struct {
		PapersSharing []struct {
			Paper struct {
				ID, Label string
				Entities  []struct{ ID, Name string }
			}
			Shared []struct{ ID string }
		}
	}
	s.query(t, `query($p: ID!) { papersSharing(paper: $p, kinds: [TECHNIQUE], family: true, first: 5) {
		paper { id label entities { id name } } shared { id } } }`, map[string]any{"p": w.paper}, &sharing)
	if len(sharing.PapersSharing) == 0 {
		t.Fatalf("paper %s, linked to %s, shares no technique", w.paper, w.entity)
	}
	m := sharing.PapersSharing[0]
	w.shared, w.sharedAs = m.Paper.ID, m.Paper.Label
	// The entity opened next is one the two papers share when the shared
	// paper links to it directly, else the shared paper's first.
	w.next, w.nextName = m.Paper.Entities[0].ID, m.Paper.Entities[0].Name
	for _, e := range m.Paper.Entities {
		for _, sh := range m.Shared {
			if e.ID == sh.ID {
				w.next, w.nextName = e.ID, e.Name
			}
		}
	}
	var ent struct {
		Node        struct{ PaperCount int }
		CoOccurring []struct{ Count int }
	}
	s.query(t, `query($id: ID!) { node(id: $id) { ... on Entity { paperCount } } coOccurring(entity: $id, first: 12) { count } }`,
		map[string]any{"id": w.next}, &ent)
	w.papers, w.cooc = min(ent.Node.PaperCount, 10), len(ent.CoOccurring)
	return w
}

// TestExploreInBrowser walks the explorer on the seed graph as a reader
// would: search, a paper, a paper sharing its techniques, one of that
// paper's entities, its neighbourhood picture, and a node of the picture;
// each page must show what the API says. With -screenshots it writes the
// README's pictures to docs/.
func TestExploreInBrowser(t *testing.T) {
	ctx := browser(t)
	s := startServe(t, "--db", t.TempDir())
	w := planWalk(t, s)
	if err := chromedp.Do(ctx, chromedp.Navigate(s.url+"/explore")); err != nil {
		t.Fatalf("loading the explorer: %v", err)
	}
	tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()

	// wait polls the JavaScript expression js until it is true.
	wait := func(step, js string) {
		t.Helper()
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("%s: waiting for %s: %v\nthe page shows:\n%s", step, js, err, body)
		}
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(tctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.querySelector(`+strconv.Quote(sel)+`)?.textContent ?? ""`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	click := func(step, sel string) {
		t.Helper()
		if err := chromedp.Do(tctx, chromedp.ScrollIntoView(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("%s: clicking %s: %v", step, sel, err)
		}
	}
	shot := func(name string) {
		t.Helper()
		if !*screenshots {
			return
		}
		png, err := chromedp.Run(tctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("docs", name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	has := func(sel string) string { return `document.querySelector(` + strconv.Quote(sel) + `) !== null` }
	byID := func(scope, id string) string { return scope + ` a[data-id=` + strconv.Quote(id) + `]` }

	// Search as you type: the technique among the entities, the paper
	// among the papers.
	if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.CSS("#q")), chromedp.SendKeys(chromedp.CSS("#q"), w.term)); err != nil {
		t.Fatalf("typing %q: %v", w.term, err)
	}
	wait("search", has(byID("#results .entities", w.entity))+" && "+has(byID("#results .papers", w.paper)))
	shot("explore-search.png")

	// The paper: label, abstract with every mention highlighted, and the
	// shared paper among those sharing its techniques.
	click("search", byID("#results .papers", w.paper))
	wait("paper", has(`article.paper[data-id="`+w.paper+`"]`))
	if got := text("#label"); got != w.label {
		t.Errorf("paper page label = %q; want %q", got, w.label)
	}
	if got := count("#abstract .mention"); got == 0 || got > w.mentions {
		t.Errorf("paper page highlights %d mentions; want 1..%d", got, w.mentions)
	}
	if count(".by-kind a.chip") == 0 {
		t.Error("paper page lists no entities")
	}
	wait("paper", has(byID(`.sharing[data-kind="techniques"]`, w.shared)))
	if count(`.sharing[data-kind="techniques"] .score`) == 0 || count(`.sharing[data-kind="techniques"] .shared a`) == 0 {
		t.Error("papers sharing techniques show no score or shared entities")
	}
	shot("explore-paper.png")

	// The shared paper, then one of its entities.
	click("paper", byID(`.sharing[data-kind="techniques"]`, w.shared))
	wait("shared paper", has(`article.paper[data-id="`+w.shared+`"]`))
	if got := text("#label"); got != w.sharedAs {
		t.Errorf("shared paper page label = %q; want %q", got, w.sharedAs)
	}
	click("shared paper", byID(".by-kind", w.next))
	wait("entity", has(`article.entity[data-id="`+w.next+`"]`))
	if got := text("#name"); len(got) < len(w.nextName) || got[:len(w.nextName)] != w.nextName {
		t.Errorf("entity page name = %q; want %q first", got, w.nextName)
	}
	if got := count("#papers li"); got != w.papers {
		t.Errorf("entity page lists %d papers; want %d", got, w.papers)
	}
	if got := count("#cooccurring li"); got != w.cooc {
		t.Errorf("entity page lists %d co-occurring entities; want %d", got, w.cooc)
	}
	for _, sel := range []string{"#aliases", "#broader", "#narrower"} {
		if count(sel) != 1 {
			t.Errorf("entity page has no %s", sel)
		}
	}
	shot("explore-entity.png")

	// The picture: the server's SVG, the entity and the shared paper among
	// its nodes, each a link to its page.
	click("entity", "#picture")
	wait("picture", has(byID("figure svg", w.next)))
	shot("explore-picture.png")
	href, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.querySelector(`+strconv.Quote(byID("figure svg", w.shared))+`)?.getAttribute("href") ?? ""`))
	if err != nil || href != "#/paper/"+w.shared {
		t.Errorf("picture node %s links to %q, %v; want #/paper/%s", w.shared, href, err, w.shared)
	}
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(document.querySelector(`+strconv.Quote(byID("figure svg", w.shared))+`).dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true})), true)`)); err != nil {
		t.Fatal(err)
	}
	wait("picture node", has(`article.paper[data-id="`+w.shared+`"]`))

	t.Logf("walked %+v", w)
}
