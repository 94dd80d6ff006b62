package extract

import (
	"strings"
)

// titleSep stands between the title and the abstract in the text that
// extraction reads (Text.Orig); mentions never cover it.
const titleSep = "\n\n"

// withTitle returns the text extraction reads for a paper with a title:
// the title, a sentence stop, then the abstract, each cleaned on its own
// (so that markup left open in one never swallows the other, and the
// abstract cleans, and so hashes to its id, exactly as without a title);
// and the cleaned offset where the abstract starts.
//
// A title is read like a sentence of the abstract: it names the paper's
// task and techniques more often than any sentence does, and sometimes
// names what the abstract leaves implicit.
func withTitle(title, abstract Text) (Text, int) {
	if title.Clean == "" {
		return abstract, 0
	}
	sep := ". "
	if strings.ContainsAny(title.Clean[len(title.Clean)-1:], ".?!") {
		sep = " "
	}
	body := len(title.Clean) + len(sep)
	base := int32(len(title.Orig) + len(titleSep))
	t := Text{
		Orig:  title.Orig + titleSep + abstract.Orig,
		Clean: title.Clean + sep + abstract.Clean,
		start: make([]int32, 0, body+len(abstract.Clean)),
		end:   make([]int32, 0, body+len(abstract.Clean)),
	}
	t.start = append(t.start, title.start...)
	t.end = append(t.end, title.end...)
	for range sep {
		t.start = append(t.start, int32(len(title.Orig)))
		t.end = append(t.end, int32(len(title.Orig)))
	}
	for i := range abstract.start {
		t.start = append(t.start, abstract.start[i]+base)
		t.end = append(t.end, abstract.end[i]+base)
	}
	return t, body
}

// titleOpeners start titles without naming anything: "Towards X: ...",
// "Beyond X: ...".
var titleOpeners = setOf("towards toward beyond rethinking revisiting on when why how what does do can is are understanding learning improving scaling")

// titleName returns the name a title gives before its colon, "HUMOF:
// Human Motion Forecasting ..." or "Generative Blocks World: Moving
// Things ...", or "". One word must look coined (nameLike) or be a
// capitalised word the abstract uses again; a phrase of two to four words
// must recur in the abstract, as a name does and a slogan ("Sample Smart,
// Not Hard: ...") seldom does.
func (w *work) titleName() string {
	if w.body == 0 {
		return ""
	}
	colon := -1
	for i := 0; i < w.bodyWord && i < 5; i++ {
		wd := w.words[i]
		if wd.stop {
			if wd.end < len(w.text.Clean) && w.text.Clean[wd.end] == ':' {
				colon = i
			}
			break
		}
		if wd.comma || wd.open || wd.close {
			return ""
		}
	}
	if colon < 0 {
		return ""
	}
	first := 0
	if colon > 0 && w.words[0].lower == "the" {
		first = 1
	}
	if titleOpeners[w.words[first].lower] {
		return ""
	}
	name := w.text.Clean[w.words[first].start:w.words[colon].end]
	abstract := w.text.Clean[w.body:]
	if first == colon {
		wd := w.words[first]
		switch {
		case w.generic(wd) || isDimensions(wd.text) || wd.class&(commonCap|notName|unit) != 0:
			return ""
		case wd.named, capitalised(wd.text) && strings.Contains(abstract, wd.text):
			return wd.text
		}
		return ""
	}
	at := strings.Index(strings.ToLower(abstract), strings.ToLower(name))
	if at < 0 {
		return ""
	}
	// "Unsupervised Learning of Efficient Exploration (ULEE)": the
	// abstract's short form is the name the paper goes by.
	if rest := abstract[at+len(name):]; strings.HasPrefix(rest, " (") {
		if end := strings.IndexByte(rest, ')'); end > 2 && shortForm(rest[2:end]) {
			return rest[2:end]
		}
	}
	return name
}
