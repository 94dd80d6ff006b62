// Package extract finds, in paper abstracts, each paper's own name and the
// tasks, modalities, datasets and techniques it links to, canonicalised so
// that one concept is one node ("LLM", "LLMs" and "large language models"
// are the technique "large language model").
//
// Abstracts are read by a Reader (seed text, JSON Lines, OpenReview notes,
// arXiv metadata), cleaned of markup by Clean, then matched against an
// embedded vocabulary (vocab/*.tsv: kind, canonical name, aliases, broader
// names) with a token trie, so the cost is linear in the text whatever the
// vocabulary's size. The title is read as a first sentence. Acronyms
// defined in the text ("Vision-Language Models (VLMs)") resolve their
// later uses, and context patterns find names no vocabulary lists: the
// paper's own name ("HUMOF: ...", "we propose X", "termed X") and new
// datasets ("X, a large-scale benchmark", "on X and Y"). A task phrase
// grammar finds tasks no list has ("human motion forecasting"), a
// technique the paper is about is also its task (a role), and denied
// mentions ("without MCMC") are not links.
//
//	x, err := extract.New(extract.Options{})
//	r := extract.NewReader(f, "papers.jsonl", extract.ReaderOptions{})
//	for {
//		doc, err := r.Next()
//		if err == io.EOF {
//			break
//		}
//		paper, err := x.Extract(ctx, doc) // a graph.Paper with Entities and Mentions; err only when ctx ends
//	}
package extract
