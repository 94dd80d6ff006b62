package extract

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/papergraph/papergraph/graph"
)

// datasetHeads name what a dataset is: "the X benchmark", "X, a large-scale
// dataset".
var datasetHeads = map[string]bool{
	"dataset": true, "datasets": true, "benchmark": true, "benchmarks": true, "corpus": true,
	"testbed": true, "suite": true, "bench": true, "corpora": true, "leaderboard": true,
}

var sizeSuffix = regexp.MustCompile(`^\S+-\d+(\.\d+)?[KM]$`)

var notAfterOn = map[string]bool{
	"based": true, "built": true, "relies": true, "rely": true, "relying": true, "depend": true,
	"depends": true, "focus": true, "focuses": true, "focused": true, "conditioned": true,
	"run": true, "runs": true, "deployed": true, "implemented": true, "operate": true, "operates": true,
}

// datasets finds named datasets and benchmarks that the vocabulary does
// not list, from their context: "X, a large-scale dataset", "the X
// benchmark", "dataset X", "GIQA-160K", "on X and Y" after results, and
// the other names of a list that holds one dataset.
//
// It stops early once ctx is done.
func (w *work) datasets(ctx context.Context, defs map[string]*acronym, name string) {
	is := make([]bool, len(w.words))
	for i := range w.words {
		wd := &w.words[i]
		// "the Multi-Domain Wizard-of-Oz dataset (MultiWOZ)": the short
		// form of a dataset's long form names it.
		defined := i > w.bodyWord && w.words[i-1].class&datasetHead != 0 && w.acronymAfter(i-1)
		if i < w.bodyWord || !defined && !w.candidate(i, defs) {
			continue
		}
		lower := wd.lower
		switch {
		case defined:
			is[i] = true
		case hasDigit(wd.text) && sizeSuffix.MatchString(wd.text) && wd.named:
			is[i] = true
		case strings.Contains(lower, "bench") || strings.HasSuffix(lower, "dataset") || strings.HasSuffix(lower, "-qa"):
			is[i] = true
		case w.afterDatasetHead(i):
			is[i] = true
		case i+1 < len(w.words) && w.words[i+1].class&datasetHead != 0 && !wd.comma && !wd.stop && !w.inLongForm(i) && !w.acronymAfter(i+1):
			is[i] = true
		case w.appositiveDataset(i) || w.namedDataset(i):
			is[i] = true
		case wd.text != name && i > 0 && (w.words[i-1].lower == "on" || w.words[i-1].lower == "in") && !w.words[i-1].stop && wd.named && !(i > 1 && w.words[i-2].class&afterOnVerb != 0) && !wd.open && !w.shortened(i, defs) && !w.scoreIn(i):
			is[i] = true
		}
	}
	// A list with one dataset in it is a list of datasets, whether the
	// vocabulary knows that one ("InfographicVQA, ChartMuseum, and
	// HR-Bench") or its context gave it away.
	known := make([]bool, len(w.words))
	for i := w.bodyWord; i < len(w.words); i++ {
		// linkedAt scans every mention found so far.
		if ctx.Err() != nil {
			return
		}
		known[i] = w.taken[w.words[i].start] && w.linkedAt(i, graph.Dataset)
	}
	// A pass spreads a list one name leftwards: a list of n names takes n
	// passes over the text.
	for changed := true; changed; {
		if ctx.Err() != nil {
			return
		}
		changed = false
		for i := range w.words {
			if !is[i] && !known[i] {
				continue
			}
			for _, j := range []int{i - 1, i + 1} {
				// Beside a name the vocabulary knows, only a coined name
				// joins the list: "Brain" or "Blender" there is a word.
				if j < w.bodyWord || j >= len(w.words) || is[j] || !(w.words[j].named || capitalised(w.words[j].text) && is[i]) || !w.candidate(j, defs) || w.words[j].text == name || w.runsOn(j) {
					continue
				}
				lo, hi := min(i, j), max(i, j)
				if w.words[lo].comma || (lo > 0 && (w.words[hi-1].lower == "and" || w.words[hi-1].lower == "or")) {
					is[j] = true
					changed = true
				}
			}
			// "X, Y, and Z": step over the conjunction.
			if i+2 < len(w.words) && w.words[i].comma && (w.words[i+1].lower == "and" || w.words[i+1].lower == "or") {
				if k := i + 2; !is[k] && w.words[k].named && w.candidate(k, defs) && !w.runsOn(k) {
					is[k] = true
					changed = true
				}
			}
			if i+2 < len(w.words) && !w.words[i].comma && (w.words[i+1].lower == "and" || w.words[i+1].lower == "or") {
				if k := i + 2; !is[k] && w.words[k].named && w.candidate(k, defs) && !w.runsOn(k) {
					is[k] = true
					changed = true
				}
			}
			// "the CoNLL-2002 and CoNLL-2003 datasets": leftwards too.
			if k := i - 2; k >= w.bodyWord && !w.words[k].comma && !w.words[k].stop && (w.words[i-1].lower == "and" || w.words[i-1].lower == "or") {
				if !is[k] && w.words[k].named && w.candidate(k, defs) && !w.runsOn(k) && w.words[k].text != name {
					is[k] = true
					changed = true
				}
			}
		}
	}
	w.dropSystems(is)
	for i, ok := range is {
		if !ok {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		wd := w.words[i]
		start, end := wd.start, wd.end
		if i+1 < len(w.words) && !wd.comma && !wd.stop && (w.words[i+1].text == "Bench" || w.words[i+1].text == "Benchmark") {
			end = w.words[i+1].end
		}
		// "the creation of Audio Set, a large-scale dataset": the last
		// word of the paper's name of several words stands for all of it.
		if rest, ok := strings.CutSuffix(name, " "+wd.text); ok && strings.HasSuffix(w.text.Clean[:start], rest+" ") {
			start -= len(rest) + 1
		}
		w.add(graph.Dataset, w.text.Clean[start:end], -1, start, end)
	}
}

// acronymAfter reports whether a short form in parentheses follows word
// i: "the Multi-Domain Wizard-of-Oz dataset (MultiWOZ)" names the
// dataset MultiWOZ, and the words before the head only describe it.
func (w *work) acronymAfter(i int) bool {
	if i+1 >= len(w.words) || w.words[i].stop || w.words[i].comma {
		return false
	}
	next := w.words[i+1]
	return next.open && (next.close || next.comma) && shortForm(next.text) && !quantity(next.text)
}

// shortened reports whether word i is (the end of) a long form that the
// acronym after it defines: "on Out-of-Distribution (OoD) inputs" names a
// notion, not a dataset.
func (w *work) shortened(i int, defs map[string]*acronym) bool {
	if i+1 >= len(w.words) || !w.words[i+1].open || w.words[i].comma || w.words[i].stop {
		return false
	}
	a := defs[singular(w.words[i+1].text)]
	return a != nil && a.word == i+1 && a.long >= 0 && a.long <= i
}

// dropSystems unmarks the names that their uses show to be systems, not
// datasets: one that a sentence compares with ("surpasses TAPTRv2"),
// one that acts ("TAPTRv2 achieves"),
// one a method noun follows ("the MOTR tracker" is not, "the MOTR
// model" is), or one listed beside a technique the vocabulary knows
// ("datasets including Trackformer, MOTR, FairMOT, ByteTrack"), which
// becomes a technique itself, so that the list's other names follow it,
// right to left.
func (w *work) dropSystems(is []bool) {
	var at map[string][]int
	for i := len(is) - 1; i >= 0; i-- {
		if !is[i] {
			continue
		}
		if at == nil {
			at = map[string][]int{}
			for j := w.bodyWord; j < len(w.words); j++ {
				if w.words[j].named || capitalised(w.words[j].text) {
					at[w.words[j].text] = append(at[w.words[j].text], j)
				}
			}
		}
		wd := w.words[i]
		// A head beside any of its uses ("the MathSpeech benchmark")
		// keeps it a dataset, whatever else it does.
		if slices.ContainsFunc(at[wd.text], w.besideDatasetHead) {
			continue
		}
		// "On SEAL-0, GPT-5 with tools achieves": a list does not run
		// past the comma after what results are on.
		if w.listedWithTechnique(i) && !(i > 0 && (w.words[i-1].lower == "on" || w.words[i-1].lower == "in") && wd.comma) {
			is[i] = false
			w.add(graph.Technique, wd.text, -1, wd.start, wd.end)
			continue
		}
		for _, j := range at[wd.text] {
			if w.comparedWith(j, true) || w.acts(j) {
				is[i] = false
				break
			}
		}
	}
}

// besideDatasetHead reports whether a dataset head noun stands just
// before or after word j: "the X benchmark", "dataset X".
func (w *work) besideDatasetHead(j int) bool {
	wd := w.words[j]
	if j+1 < len(w.words) && !wd.comma && !wd.stop && w.words[j+1].class&datasetHead != 0 {
		return true
	}
	return j > 0 && !w.words[j-1].stop && !w.words[j-1].comma && w.words[j-1].class&datasetHead != 0
}

// acts reports whether word j is the subject of a verb only a method
// takes, "X achieves", "X outperforms", or a method noun follows it.
func (w *work) acts(j int) bool {
	wd := w.words[j]
	if wd.comma || wd.stop || wd.close || j+1 >= len(w.words) {
		return false
	}
	next := w.words[j+1]
	return methodVerbs[next.lower] || next.class&methodHead != 0 && next.class&datasetHead == 0
}

// methodVerbs are the verbs whose subject is a method, never a dataset.
// "X improves", "X employs" and "X utilizes" are said of datasets too.
var methodVerbs = setOf("achieves achieved outperforms outperformed surpasses surpassed learns generates predicts beats attains")

// runsOn reports whether word i is followed by "on" and a name: in
// "Show-o2 on GenEval, and OpenSoraPlan on VBench" a list of systems,
// each with its dataset, not a list of datasets.
func (w *work) runsOn(i int) bool {
	wd := w.words[i]
	return i+2 < len(w.words) && !wd.comma && !wd.stop && !wd.close && w.words[i+1].lower == "on" && w.words[i+2].named
}

// titleBenchmark links the paper's name as a dataset when its title
// calls it one: "HeuriGym: An Agentic Benchmark for ...", "X: A
// Large-Scale Dataset of ...". The head must end the appositive's noun
// phrase, so "CAGE: A Framework for ... Benchmark Generation" is no
// benchmark.
func (w *work) titleBenchmark(name string) {
	if name == "" || w.body == 0 || !strings.Contains(w.text.Clean[:w.body], name) {
		return
	}
	colon := -1
	for i := 0; i < w.bodyWord; i++ {
		if wd := w.words[i]; wd.stop && wd.end < len(w.text.Clean) && w.text.Clean[wd.end] == ':' || i > 0 && w.titleDash(i-1) {
			colon = i
			break
		}
	}
	if colon < 0 || colon+1 >= w.bodyWord || w.words[colon+1].class&determiner == 0 {
		return
	}
	for i := colon + 2; i < w.bodyWord && i <= colon+6; i++ {
		wd := w.words[i]
		if wd.class&datasetHead != 0 {
			if i+1 == w.bodyWord || wd.stop || wd.comma || notModifiers[w.words[i+1].lower] {
				start := strings.Index(w.text.Clean[:w.body], name)
				w.add(graph.Dataset, name, -1, start, start+len(name))
			}
			return
		}
		if wd.stop || wd.comma || wd.class&methodHead != 0 {
			return
		}
	}
}

// listLead are the words that may stand between "benchmarks" and the
// names it introduces: "benchmarks (e.g., X, Y)", "datasets such as X".
var listLead = map[string]bool{"e.g": true, "e.g.": true, "i.e": true, "i.e.": true, "such": true, "as": true, "including": true, "like": true, "namely": true, "eg": true}

// afterDatasetHead reports whether word i follows "dataset" or
// "benchmarks", directly ("the synthetic dataset BEDLAM") or through a
// list lead ("benchmarks (e.g., DiLiGenT, ...").
func (w *work) afterDatasetHead(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		prev := w.words[j]
		if prev.class&datasetHead != 0 {
			// "with a Corpus Interaction Engine": a capitalised head
			// inside a sentence is a word of a longer name.
			if capitalised(prev.text) && j > w.bodyWord && !w.words[j-1].stop {
				return false
			}
			return !prev.stop && (!prev.comma || j < i-1)
		}
		if prev.class&listLeadWord == 0 || prev.stop && prev.lower != "e.g" && prev.lower != "i.e" {
			return false
		}
	}
	return false
}

// checkpoints links the named model checkpoints an abstract uses
// ("Llama3-70B", "Qwen2.5-7B-Instruct") as techniques: GUIDELINES.md
// counts named prior systems used as building blocks as techniques, and
// a parameter count or tuning suffix marks a model, not a dataset. It
// stops early once ctx is done.
func (w *work) checkpoints(ctx context.Context, name string) {
	for i := range w.words {
		wd := &w.words[i]
		// "AgentFold-30B-A3B" of the paper AgentFold is its own model.
		if w.taken[wd.start] || name != "" && strings.HasPrefix(wd.text, name) || !wd.named || !isModelName(wd.text) {
			continue
		}
		if hasOddChar(wd.text) {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		w.add(graph.Technique, wd.text, -1, wd.start, wd.end)
	}
}

// candidate reports whether a word may name a new dataset: a coined name
// or capitalised word that no vocabulary entry or defined acronym
// already explains, and not a number, size or percentage.
func (w *work) candidate(i int, defs map[string]*acronym) bool {
	if c := w.cand[i]; c != 0 {
		return c > 0
	}
	ok := w.isCandidate(i, defs)
	w.cand[i] = -1
	if ok {
		w.cand[i] = 1
	}
	return ok
}

func (w *work) isCandidate(i int, defs map[string]*acronym) bool {
	wd := &w.words[i]
	if w.taken[wd.start] || len(wd.text) < 2 {
		return false
	}
	if !wd.named {
		// A capitalised word opening a sentence is an English word, as
		// is a function word or adjective capitalised by mistake
		// ("However, Current benchmarks").
		if !capitalised(wd.text) || i == 0 || w.words[i-1].stop || wd.class&notModifier != 0 {
			return false
		}
	}
	if wd.class&(commonCap|datasetHead|unit|notName) != 0 || hasOddChar(wd.text) || citationKey(wd.text) {
		return false
	}
	if i+1 < len(w.words) && fileWords[w.words[i+1].lower] {
		return false // "in USD format"
	}
	if a := defs[singular(wd.text)]; a != nil && a.long >= 0 {
		return false
	}
	if hasDigit(wd.text) && (isModelSize(wd.text) || isDimensions(wd.text)) || isModelName(wd.text) {
		return false
	}
	return !compoundAdjective(wd.text)
}

// fileWords after a name make it a file format or a language, not a
// dataset: "in USD format", "in JSON files".
var fileWords = setOf("format formats file files")

// citationKey reports whether s is an alphabetic citation key, "AZ22"
// or "FGQ+23": capitals, an optional "+", two digits.
func citationKey(s string) bool {
	n := len(s)
	if n < 4 || s[n-1] < '0' || s[n-1] > '9' || s[n-2] < '0' || s[n-2] > '9' {
		return false
	}
	body := strings.TrimSuffix(s[:n-2], "+")
	for i := 0; i < len(body); i++ {
		if body[i] < 'A' || body[i] > 'Z' {
			return false
		}
	}
	// Keys take the initials of at most four authors; "ILSVRC15" is a
	// dataset.
	return len(body) >= 2 && len(body) <= 4
}

// compoundAdjective reports whether w ends in a lower-case hyphenated
// part, as "API-based", "LLM-driven" and "GPU-friendly" do: such words
// modify a noun and name nothing themselves.
func compoundAdjective(w string) bool {
	i := strings.LastIndexByte(w, '-')
	if i < 0 || i == len(w)-1 {
		return false
	}
	for _, c := range []byte(w[i+1:]) {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return len(w)-i-1 >= 3
}

// The three matchers below are hand-written forms of the regular
// expressions in their comments (TestShapes holds them to those): they
// run on most capitalised words, where the regexp engine took 6% of
// Extract's instructions.

// hasOddChar reports whether s has one of @%$/=+<>'’(), which no name
// of a dataset or checkpoint has: strings.ContainsAny, without decoding
// each rune.
func hasOddChar(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && oddChar[c] || c == 0xE2 && strings.HasPrefix(s[i:], "’") {
			return true
		}
	}
	return false
}

var oddChar = func() (t [utf8.RuneSelf]bool) {
	for _, c := range []byte("@%$/=+<>'()") {
		t[c] = true
	}
	return t
}()

// isModelName reports whether s names a checkpoint by its size or
// tuning, `[-_ ]\d+(\.\d+)?[Bb](-|$)|-(Instruct|Chat|Base|it)(-|$)`:
// "Llama3-70B", "Qwen2.5-7B-Instruct", "Mistral-7B-Instruct",
// "Gemma-2-9B-it".
func isModelName(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '-':
			rest := s[i+1:]
			for _, t := range [...]string{"Instruct", "Chat", "Base", "it"} {
				if strings.HasPrefix(rest, t) && endsPart(rest[len(t):]) {
					return true
				}
			}
			fallthrough
		case '_', ' ':
			if n := number(s[i+1:]); n > 0 && n < len(s)-i-1 && (s[i+1+n] == 'B' || s[i+1+n] == 'b') && endsPart(s[i+2+n:]) {
				return true
			}
		}
	}
	return false
}

// scoreIn reports whether word i, after "in", names the metric of a
// score before it: "achieves 44.7% in AP" ("44.7% on FollowIR" names
// the benchmark).
func (w *work) scoreIn(i int) bool {
	return i > 1 && w.words[i-1].lower == "in" && number(w.words[i-2].text) > 0
}

// endsPart reports whether rest, what follows a part of a name, is
// empty or starts a new part with a hyphen.
func endsPart(rest string) bool {
	return rest == "" || rest[0] == '-'
}

// number returns the length of the number that s starts with,
// `\d+(\.\d+)?`, or 0.
func number(s string) int {
	n := digits(s)
	if n > 0 && n+1 < len(s) && s[n] == '.' {
		if f := digits(s[n+1:]); f > 0 {
			n += 1 + f
		}
	}
	return n
}

// digits returns the number of ASCII digits s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}

// isDimensions reports whether s is "2D", "3D", "4D" or the like,
// `^\d+(\.\d+)?[Dd](-\w+)?$`, as in "3D-aware".
func isDimensions(s string) bool {
	n := number(s)
	if n == 0 || n >= len(s) || s[n] != 'D' && s[n] != 'd' {
		return false
	}
	rest := s[n+1:]
	if rest == "" {
		return true
	}
	if rest[0] != '-' || len(rest) == 1 {
		return false
	}
	for i := 1; i < len(rest); i++ {
		if c := rest[i]; !asciiWord[c] && c != '_' {
			return false
		}
	}
	return true
}

// isModelSize reports whether s is a size, a count or a version rather
// than a name, `(?i)^[\d.]+[kmbt]?$|\d+(\.\d+)?B$|^[A-Z]\d$`: "7B",
// "1.5", "100k", "V2". Case folding lets K stand for the Kelvin sign
// and S for the long s.
func isModelSize(s string) bool {
	if isCount(s) {
		return true
	}
	// \d+(\.\d+)?B$, unanchored at the start: a digit before the b.
	if n := len(s); n >= 2 && (s[n-1] == 'b' || s[n-1] == 'B') && '0' <= s[n-2] && s[n-2] <= '9' {
		return true
	}
	// ^[A-Z]\d$
	r, size := utf8.DecodeRuneInString(s)
	letter := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '\u212A' || r == '\u017F'
	return letter && len(s) == size+1 && '0' <= s[size] && s[size] <= '9'
}

// isCount reports whether s is a number with at most one magnitude
// letter, ^[\d.]+[kmbt]?$: "7B", "1.5k", "350M".
func isCount(s string) bool {
	body := s
	if n := len(s); n > 0 && strings.IndexByte("kKmMbBtT", s[n-1]) >= 0 {
		body = s[:n-1]
	} else if strings.HasSuffix(s, "\u212A") {
		body = s[:len(s)-len("\u212A")]
	}
	return body != "" && strings.Trim(body, "0123456789.") == ""
}

// notNames are acronyms and words that look like coined names in
// abstracts but name metrics, fields, hardware or organisations, never a
// dataset.
var notNames = map[string]bool{
	"ai": true, "ml": true, "nlp": true, "cv": true, "rl": true, "gui": true, "guis": true, "ood": true, "rgb": true, "rgb-d": true,
	"kl": true, "eu": true, "uk": true, "us": true, "usa": true, "json": true, "api": true, "apis": true, "cpu": true, "cpus": true,
	"psnr": true, "ssim": true, "lpips": true, "fid": true, "fvd": true, "auroc": true, "auc": true, "auprc": true, "bleu": true,
	"rouge": true, "meteor": true, "cider": true, "map": true, "miou": true, "iou": true, "mae": true, "mse": true, "rmse": true,
	"h100": true, "a100": true, "v100": true, "rtx": true, "tpu": true, "github": true, "huggingface": true, "hugging": true,
	"english": true, "chinese": true, "korean": true, "japanese": true, "french": true, "german": true, "spanish": true,
	"arabic": true, "hindi": true, "russian": true, "italian": true, "portuguese": true, "vietnamese": true, "turkish": true,
	"african": true, "european": true, "american": true, "asian": true, "indian": true, "multilingual": true, "openai": true, "google": true, "meta": true, "deepmind": true, "anthropic": true,
	"sota": true, "llm": true, "llms": true, "vlm": true, "vlms": true, "mllm": true, "mllms": true, "sft": true, "cot": true,
	"pass@1": true, "top-1": true, "top-5": true, "f1": true, "em": true, "acc": true, "ppl": true, "iclr": true, "neurips": true,
	"icml": true, "cvpr": true, "acl": true, "emnlp": true, "arxiv": true, "hard": true, "easy": true, "medium": true,
	"pde": true, "pdes": true, "ode": true, "odes": true, "sde": true, "sdes": true, "gpu": true, "gpus": true,
}

// units are measures that look like coined names ("MACs", "FLOPs").
var units = map[string]bool{"macs": true, "flops": true, "gflops": true, "tflops": true, "gpus": true, "gpu": true, "tpus": true, "fps": true, "params": true, "gmacs": true}

// appositiveDataset reports whether word i is followed by ", a/an/the
// ... dataset" (within a few words of the same clause).
func (w *work) appositiveDataset(i int) bool {
	wd := w.words[i]
	j := i + 1
	if wd.close || !wd.comma {
		// "MoSu (Most Replayed ...), the first large-scale benchmark"
		if j < len(w.words) && w.words[j].open {
			for j < len(w.words) && !w.words[j].close && j-i < 12 {
				j++
			}
			if j >= len(w.words) || !w.words[j].comma {
				return false
			}
			j++
		} else if !wd.comma {
			return false
		}
	}
	if j >= len(w.words) || w.words[j].class&determiner == 0 {
		return false
	}
	for k := j + 1; k < len(w.words) && k-j <= 8; k++ {
		if w.words[k].class&datasetHead != 0 {
			return true
		}
		// "EditScore, an efficient model to evaluate ... benchmark": the
		// appositive names a method. "X, our largest variant, surpasses
		// GPT-5 in the benchmark": the noun phrase ended before the head.
		if w.words[k].stop || w.words[k].comma || w.words[k].class&methodHead != 0 || appositiveEnds[w.words[k].lower] {
			return false
		}
	}
	return false
}

// appositiveEnds are the prepositions after which an appositive's noun
// phrase has ended: "a benchmark of" keeps its head, "surpasses X in the
// benchmark" does not.
var appositiveEnds = setOf("in on at to from by with via for than")

// namedDataset reports whether word i is what "called", "named" or the
// like names after a dataset head in its clause, with no method noun
// nearer: "we curated a dataset comprising 61K sets of videos for our new
// task, called VideoComp".
func (w *work) namedDataset(i int) bool {
	if i < 2 || w.words[i-1].class&namingWord == 0 || !w.words[i].named {
		return false
	}
	for j := i - 2; j >= 0 && j >= i-14 && !w.words[j].stop; j-- {
		switch {
		case w.words[j].class&datasetHead != 0:
			return true
		case w.words[j].class&methodHead != 0:
			return false
		}
	}
	return false
}

// inLongForm reports whether word i is inside a run of capitalised words,
// as the long form of a name is ("3D Motion and Animation Dataset
// (BigMaQ)", "Rectified Decoupled Dataset Distillation"), rather than a
// name of its own ("the Weather dataset").
func (w *work) inLongForm(i int) bool {
	wd := w.words[i]
	if wd.named || i == 0 || i == w.bodyWord {
		return false
	}
	p := w.words[i-1]
	if (p.lower == "and" || p.lower == "of" || p.lower == "for") && i >= 2 && i-2 >= w.bodyWord && i+1 < len(w.words) && capitalised(w.words[i+1].text) {
		// "3D Motion and Animation Dataset (BigMaQ)", where the head is
		// title-cased too; "the TikTok and Fashion benchmarks" lists two.
		p = w.words[i-2]
	}
	return !p.stop && !p.comma && (capitalised(p.text) || p.named)
}
