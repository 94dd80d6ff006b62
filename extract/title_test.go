package extract

import (
	"slices"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

func TestTitleName(t *testing.T) {
	tests := []struct {
		title, abstract, want string
	}{
		{"HUMOF: Human Motion Forecasting in Interactive Social Scenes", "We propose an effective method for human motion forecasting.", "HUMOF"},
		{"Generative Blocks World: Moving Things Around in Pictures", "We describe Generative Blocks World to interact with the scene.", "Generative Blocks World"},
		{"Hubble: a Model Suite", "We present Hubble, a suite of open-source models.", "Hubble"},
		// A slogan the abstract never repeats names nothing.
		{"Sample Smart, Not Hard: Correctness-First Decoding", "Decoding matters.", ""},
		{"Scaling with Collapse: Efficient Training", "Effective training relies on consistency.", ""},
		{"Towards Robust Agents: A Study", "Towards robust agents, we study things.", ""},
		// The title's name wins over one the abstract introduces later.
		{"EditScore: Reward Modeling for Image Editing", "We introduce EditReward-Bench, a benchmark, and EditScore, a reward model.", "EditScore"},
		{"", "We propose Dolphin, a model.", "Dolphin"},
	}
	x := newExtractor(t)
	for _, tt := range tests {
		if got := extractDoc(t, x, Document{Title: tt.title, Abstract: tt.abstract}).Name; got != tt.want {
			t.Errorf("Extract(title %q).Name = %q; want %q", tt.title, got, tt.want)
		}
	}
}

func TestTitleMentions(t *testing.T) {
	x := newExtractor(t)
	abstract := "We study **robustness** of large language models."
	p := extractDoc(t, x, Document{Title: "Reinforcement Learning for $\\pi$ Agents", Abstract: abstract})
	if p.ID != ID(abstract) {
		t.Errorf("ID with a title = %s; want the abstract's %s", p.ID, ID(abstract))
	}
	var inTitle, inAbstract int
	for _, m := range p.Mentions {
		in := p.Abstract
		if m.InTitle {
			in, inTitle = p.Title, inTitle+1
		} else {
			inAbstract++
		}
		if m.End > len(in) || in[m.Start:m.End] != m.Text {
			t.Errorf("mention %+v: text is not at its offsets", m)
		}
	}
	if inTitle == 0 || inAbstract == 0 {
		t.Errorf("mentions %+v: want some in the title and some in the abstract", p.Mentions)
	}
	if got := p.Names(graph.Technique); !slices.Contains(got, "reinforcement learning") || !slices.Contains(got, "large language model") {
		t.Errorf("techniques = %q; want the title's and the abstract's", got)
	}
}
