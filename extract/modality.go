package extract

import (
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// modalityEvidence drops the modality cues that are not evidence of the
// paper's data, and a modality with no cue left: the fields a
// background sentence lists ("success across diverse domains, including
// image synthesis and robotic planning", "applications in computer
// vision"), what the method borrows from ("a paradigm adapted from large
// language models", "inspired by CTFs in fields like natural language
// processing"), and, on a paper whose data is video, the words that name
// a video's frames as images ("image features", "visual tokens") rather
// than images as data. GUIDELINES.md assigns a modality only when the
// abstract states or clearly implies it.
func (w *work) modalityEvidence() {
	if !slices.ContainsFunc(w.order, func(f *found) bool { return f.kind == graph.Modality }) {
		return
	}
	spans := w.incidentalSpans()
	spans = slices.DeleteFunc(spans, func(s span) bool { return s.list && !w.fieldList(s) })
	for _, s := range spans {
		if s.list {
			w.fieldLists = append(w.fieldLists, s)
		}
	}
	disciplines := w.disciplineLists()
	video := slices.ContainsFunc(w.order, func(f *found) bool { return f.kind == graph.Modality && f.name == "video" })
	for _, f := range slices.Clone(w.order) {
		if f.kind != graph.Modality {
			continue
		}
		f.mentions = slices.DeleteFunc(f.mentions, func(m graph.Mention) bool {
			if slices.ContainsFunc(spans, func(s span) bool { return s.holds(m) }) || disciplines[m.Start] {
				return true
			}
			return video && f.name == "image" && w.frameWord(m) || f.name == "code" && w.releaseSentence(m)
		})
		if len(f.mentions) == 0 {
			w.unlink(f)
		}
	}
}

// releaseWords say that a sentence announces what the paper releases:
// "The source code and pre-trained models are available at ...".
var releaseWords = setOf("available release released releases releasing publicly url https http")

// releaseSentence reports whether mention m stands in a sentence that
// announces a release: the paper's source code is no evidence that its
// data is code.
func (w *work) releaseSentence(m graph.Mention) bool {
	i := w.wordAtOrig(m.Start)
	for j := i; j < len(w.words); j++ {
		if releaseWords[w.words[j].lower] {
			return true
		}
		if w.words[j].stop {
			break
		}
	}
	for j := i - 1; j >= 0 && !w.words[j].stop; j-- {
		if releaseWords[w.words[j].lower] {
			return true
		}
	}
	return false
}

// incidentalSpans returns the ranges of text.Orig, [start, end), whose
// modality cues are incidental: a list of fields after "applications in",
// "domains such as" and the like in a sentence that does not speak of the
// paper's own work (contribution), what follows "success on" and the
// like there (a list, see fieldList), and what follows "inspired by",
// "adapted from" and the like up to the clause's end or its first comma.
func (w *work) incidentalSpans() []span {
	var spans []span
	for i := 0; i+1 < len(w.words); i++ {
		wd := w.words[i]
		var from int
		borrowed, list := false, false
		switch {
		case wd.class&borrowWord != 0 && borrowWords[wd.lower] == w.words[i+1].lower && !wd.stop && !wd.comma:
			from, borrowed = i+2, true
		case wd.class&fieldWord != 0 && !wd.stop && listOpens(w.words[i+1:]) && !w.contribution(wd.start):
			from = i + 1
		case wd.class&successWord != 0 && !wd.stop && (listOpens(w.words[i+1:]) || w.words[i+1].lower == "on" || w.words[i+1].lower == "across") && !w.contribution(wd.start):
			from, list = i+1, true
		default:
			continue
		}
		to := from
		for to < len(w.words) && to < from+12 && !w.words[to].stop && !(borrowed && w.words[to].comma) {
			to++
		}
		if from >= len(w.words) {
			continue
		}
		last := min(to, len(w.words)-1)
		a, _ := w.text.Span(w.words[from].start, w.words[from].end)
		_, b := w.text.Span(w.words[last].start, w.words[last].end)
		// The list's first item follows its opener ("on", "such as").
		item := min(from+1, last)
		if w.words[from].lower == "such" {
			item = min(from+2, last)
		}
		_, first := w.text.Span(w.words[item].start, w.words[item].end)
		spans = append(spans, span{a, b, first, list})
	}
	return spans
}

// span is a range of text.Orig, [start, end), whose modality cues are
// incidental; list marks one after a success word, incidental only where
// it is a list of fields (see fieldList).
type span struct {
	start, end int
	first      int // the end of its first item's first word
	list       bool
}

// holds reports whether mention m starts in s.
func (s span) holds(m graph.Mention) bool { return s.contains(m.Start) }

// contains reports whether byte a of text.Orig is in s.
func (s span) contains(a int) bool { return s.start <= a && a < s.end }

// fieldList reports whether s is a list of fields: it opens with a
// modality cue, and cues stand in two places or more ("speech
// recognition, computer vision and natural language processing"), not
// one ("multimodal large language models (MLLMs)", cues that overlap
// and restate one another, count as one place each).
func (w *work) fieldList(s span) bool {
	var cues [][2]int
	for _, f := range w.order {
		if f.kind != graph.Modality {
			continue
		}
		for _, m := range f.mentions {
			if s.holds(m) {
				cues = append(cues, [2]int{m.Start, m.End})
			}
		}
	}
	slices.SortFunc(cues, func(a, b [2]int) int { return a[0] - b[0] })
	if len(cues) == 0 || cues[0][0] >= s.first {
		return false
	}
	places, end := 0, -1
	for _, c := range cues {
		if c[0] >= end {
			places++
		}
		end = max(end, c[1])
	}
	return places >= 2
}

// disciplines are the modality cues that name a whole field of research
// rather than data: "computer vision", "natural language processing".
var disciplines = setOf("computer-vision vision natural-language-processing nlp language-processing speech-processing audio-processing speech-recognition computer-graphics graphics robotics")

// disciplineLists returns the starts (in text.Orig) of the discipline
// cues that a sentence not about the paper's own work names two or more
// of, of different modalities, close together: "Recently, in computer
// vision and natural language processing, systems pretrained on large
// datasets have generalized well" says where a method family came from,
// not what the paper's system consumes.
func (w *work) disciplineLists() map[int]bool {
	type cue struct {
		word  int
		start int
		name  string
	}
	var cues []cue
	for _, f := range w.order {
		if f.kind != graph.Modality {
			continue
		}
		for _, m := range f.mentions {
			if disciplines[strings.ReplaceAll(strings.ToLower(m.Text), " ", "-")] {
				cues = append(cues, cue{w.wordAtOrig(m.Start), m.Start, f.name})
			}
		}
	}
	out := map[int]bool{}
	for _, a := range cues {
		for _, b := range cues {
			if a.word >= b.word || b.word-a.word > 8 || a.name == b.name || a.word >= len(w.words) {
				continue
			}
			if slices.ContainsFunc(w.words[a.word:b.word], func(wd word) bool { return wd.stop }) || w.contribution(w.words[a.word].start) || w.reportsResults(a.word) {
				continue
			}
			out[a.start], out[b.start] = true, true
		}
	}
	return out
}

// resultWords say a sentence reports the paper's results: "Across
// diverse NLP and vision tasks, PiCa consistently outperforms ...".
var resultWords = setOf(`outperforms outperform surpasses surpass achieves achieve improves improve
	experiments results evaluate evaluated evaluation benchmarks tasks`)

// reportsResults reports whether the sentence of word i has a word of
// resultWords.
func (w *work) reportsResults(i int) bool {
	from := i
	for from > w.bodyWord && !w.words[from-1].stop {
		from--
	}
	for j := from; j < len(w.words); j++ {
		if resultWords[w.words[j].lower] {
			return true
		}
		if w.words[j].stop {
			break
		}
	}
	return false
}

// fieldWords are the nouns after which a list names fields of
// application.
var fieldWords = setOf("applications application domains fields areas disciplines")

// successWords open a list of the fields where a family of methods
// succeeded ("deep networks have yielded immense success on speech
// recognition, computer vision and natural language processing"): a
// background only where it names two fields or more, as "success in
// video generation" is as often the paper's own field.
var successWords = setOf("success successes breakthroughs")

// borrowWords are the pairs, first word to second, after which a cue is
// what the method borrows from or is compared to, not its data. Words
// test their class bits first: a map lookup for each word cost 4% of
// extraction, joining it to the next 8%.
var borrowWords = map[string]string{"inspired": "by", "adapted": "from", "borrowed": "from", "analogous": "to", "akin": "to"}

// listOpens reports whether ws opens a list of examples: "in", "such as",
// "including", "like", "e.g.".
func listOpens(ws []word) bool {
	switch ws[0].lower {
	case "in", "including", "like", "spanning", "e.g", "e.g.":
		return true
	case "such":
		return len(ws) > 1 && ws[1].lower == "as"
	}
	return false
}

// frameWords are the image cues that a video's frames share with images.
var frameWords = setOf("visual vision pixel pixels rgb")

// frameParts are what "image" modifies when it names a part of a video's
// frames: "image features", not "image pairs".
var frameParts = setOf(`features feature encoder encoders tokens token embeddings embedding representations
	representation backbone level space patches patch quality domain prior priors synthesis`)

// frameWord reports whether the image cue m is a word a video's frames
// share: "visual", "pixels", or "image" before a part ("image features").
func (w *work) frameWord(m graph.Mention) bool {
	lower := strings.ToLower(m.Text)
	if frameWords[lower] {
		return true
	}
	if lower != "image" {
		return false
	}
	rest := w.text.Orig[m.End:]
	if len(rest) < 2 || rest[0] != ' ' || rest[1] < 'a' || rest[1] > 'z' {
		return false
	}
	next, _, _ := strings.Cut(rest[1:], " ")
	return frameParts[strings.TrimRight(next, ",.;:)")]
}
