package extract

import (
	"context"
	"slices"
	"strings"

	"github.com/papergraph/papergraph/graph"
)

// The task phrase grammar finds the tasks no vocabulary lists: a head
// noun that names a kind of problem ("forecasting", "defense",
// "restoration") after the modifiers that say of what ("human motion
// forecasting", "adversarial patch defense", "facial identity
// restoration"), or a gerund before its object ("Forecasting Future
// Satellite Images", "Eliciting Harmful Capabilities"), or a head before
// "of" and its object ("detection of data contamination"). Every field
// writes its problems this way, so the grammar reaches papers that no
// list was written from.
//
// A phrase is linked only where the paper is about it: in the title or
// the abstract's opening sentence, or written twice. Elsewhere a phrase
// like this is as often a step of the method as the problem.

// taskHeads are the nouns that name a problem when modifiers say of what.
// Words that name a step far more often than a problem ("inference",
// "training") are left out; "learning" and "optimization" stay, as the
// focus rule keeps their passing uses out.
var taskHeads = setOf(`generation detection segmentation estimation forecasting prediction retrieval
	registration reconstruction recognition classification answering editing restoration compression
	correction defense defence evaluation assessment alignment analysis understanding reasoning planning
	navigation manipulation localization localisation tracking captioning translation summarization
	synthesis completion inpainting super-resolution denoising deblurring dehazing deraining enhancement
	matching verification attribution unlearning discovery recommendation ranking parsing grounding
	tracing elicitation extraction imputation interpolation tokenization distillation quantization
	adaptation generalization coordination collaboration simulation diagnosis screening prognosis
	docking folding annotation transfer animation rendering odometry stylization colorization
	retargeting explanation identification diarization separation transcription tagging seeking
	leakage steering watermarking jailbreaking modeling modelling learning optimization optimisation
	sampling coding programming inversion acceleration regression sparsification sensing bandits bandit
	aggregation recovery hallucination interpretability computation measurement robustness fairness
	safety security privacy transferability provenance management upsampling filtering
	perception compositing customization personalization personalisation debiasing
	auditing calibration selection comprehension reduction`)

// agentHeads map the agent noun of a task to its head: "a unified image
// tokenizer" does image tokenization, "an X detector" X detection.
var agentHeads = map[string]string{
	"tokenizer": "tokenization", "detector": "detection", "tracker": "tracking", "generator": "generation",
	"estimator": "estimation", "classifier": "classification", "segmenter": "segmentation",
	"predictor": "prediction", "retriever": "retrieval", "recognizer": "recognition",
	"compressor": "compression", "editor": "editing", "captioner": "captioning", "translator": "translation",
	"summarizer": "summarization", "planner": "planning", "verifier": "verification",
	"forecaster": "forecasting", "simulator": "simulation", "denoiser": "denoising", "parser": "parsing",
	"ranker": "ranking", "recommender": "recommendation", "localizer": "localization", "matcher": "matching",
	"reasoner": "reasoning",
}

// fieldHeads are heads that name a field on their own, as a title's
// subject: "Reinforcing General Reasoning", "Efficient Exploration".
var fieldHeads = setOf("reasoning exploration planning unlearning generalization steering grokking memorization memorisation watermarking hallucination interpretability")

// taskGerunds map a gerund to the head noun it names: "Detecting Data
// Contamination" is data contamination detection.
var taskGerunds = map[string]string{
	"generating": "generation", "detecting": "detection", "segmenting": "segmentation",
	"estimating": "estimation", "forecasting": "forecasting", "predicting": "prediction",
	"retrieving": "retrieval", "reconstructing": "reconstruction", "recognizing": "recognition",
	"recognising": "recognition", "classifying": "classification", "editing": "editing",
	"restoring": "restoration", "compressing": "compression", "correcting": "correction",
	"evaluating": "evaluation", "assessing": "assessment", "aligning": "alignment",
	"analyzing": "analysis", "analysing": "analysis", "tracking": "tracking", "localizing": "localization",
	"synthesizing": "synthesis", "summarizing": "summarization", "translating": "translation",
	"answering": "answering", "captioning": "captioning", "ranking": "ranking",
	"recommending": "recommendation", "tracing": "tracing", "eliciting": "elicitation",
	"extracting": "extraction", "imputing": "imputation", "distilling": "distillation",
	"quantizing": "quantization", "verifying": "verification", "attributing": "attribution",
	"identifying": "identification", "steering": "steering", "watermarking": "watermarking",
	"jailbreaking": "jailbreaking", "unlearning": "unlearning", "modeling": "modeling",
	"accelerating": "acceleration", "sampling": "sampling", "optimizing": "optimization",
	"computing": "computation", "simulating": "simulation", "measuring": "measurement",
	"filtering": "filtering", "upsampling": "upsampling",
}

// notModifiers end a phrase's modifiers on the left: function words,
// verbs that titles put before a problem ("Boosts", "Improves") and the
// adjectives that praise a method rather than name a problem ("efficient
// image generation" is image generation done well).
var notModifiers = setOf(`a an the of for in on at to from by with via and or but nor than as into onto
	over under through across between among within without towards toward beyond about against upon
	is are was were be been being has have had do does did can could may might will would shall should
	must this that these those such each every any all both either neither some many much more most
	less least few other another same own its their our your his her we they it which who whom whose
	where when while how what why not no only also very well even just still yet so then thus
	efficient effective robust scalable accurate fast faster simple novel new unified
	generalizable generalized improved improving better best good strong stronger reliable stable
	flexible principled practical powerful lightweight universal comprehensive holistic systematic
	towards rethinking revisiting understanding improving enhancing boosting enabling making
	boosts improves enables makes helps hurts matters breaks meets drives learns scales unlocks
	benchmarking benchmark benchmarks dataset datasets framework frameworks method methods approach
	study analysis survey using based via first large-scale high-quality
	high-fidelity real-time open-source state-of-the-art end-to-end training-free zero-shot few-shot
	one two three four five several various diverse multiple single due per
	adaptive dynamic direct rapid heavy intermediate higher lower larger smaller greater deeper wider longer shorter
	remarkable impressive rigorous realistic superior excellent exceptional outstanding competitive promising substantial notable
	human-level arbitrary relevant downstream different distinct separate certain given
	specific particular respective corresponding related additional
	theoretical empirical fundamental key critical important significant complex challenging
	current existing prior previous recent modern conventional traditional standard typical
	require requires produce produces capture captures improve present propose proposes introduce
	introduces achieve achieves enable provide provides show shows demonstrate demonstrates perform
	performs address addresses tackle tackles study studies explore explores investigate investigates
	leverage leverages use uses employ employs exploit combine combines evaluate evaluates support
	supports allow allows yield yields remain remains become becomes lead leads make need needs reduce
	reduces increase increases outperform outperforms surpass consider considers focus focuses apply
	applies adopt adopts facilitate facilitates ensure ensures offer offers develop develops design
	designs build builds create creates learn train trains achieve suffer suffers fail fails limit
	limits hinder hinders remain poses pose raise raises emerge emerges attract attracts
	hurt hurts accelerate accelerates equip equips bring brings turn turns meet reach reaches
	matter unlock explain explains reveal reveals rethink revisit
	although though whereas because since unless whether once if after before during
	major minor main primary central crucial essential vital
	seek seeks integrate integrates stabilize stabilizes unify unifies like unlike
	suboptimal sub-optimal poor exhibit exhibits deliver delivers difficult
	driven shown proven seen grown chosen drawn taken written known
	often yet rather thereby instead however therefore already always sometimes almost ever indeed
	never hence nevertheless moreover twice around alongside throughout
	them us itself themselves yourself` + " " + baseVerbs + " " + thirdPerson(baseVerbs))

// thirdPerson returns the -s forms of verbs: "elicits" for "elicit",
// "applies" for "apply" ("Prompting Elicits Reasoning").
func thirdPerson(verbs string) string {
	var b strings.Builder
	for _, v := range strings.Fields(verbs) {
		switch {
		case strings.HasSuffix(v, "s") || strings.HasSuffix(v, "x") || strings.HasSuffix(v, "ch") || strings.HasSuffix(v, "sh"):
			v += "es"
		case strings.HasSuffix(v, "y") && len(v) > 1 && !strings.ContainsRune("aeiou", rune(v[len(v)-2])):
			v = v[:len(v)-1] + "ies"
		default:
			v += "s"
		}
		b.WriteString(v)
		b.WriteByte(' ')
	}
	return b.String()
}

// baseVerbs are the base forms of the verbs abstracts use that English
// has only as verbs (never as nouns or adjectives, by WordNet's
// index): after a plural subject ("models lack understanding", "attacks
// undermine AI safety") such a word is the clause's verb, never a
// modifier of the task head after it, nor are their -s forms after a
// singular one ("Prompting Elicits Reasoning"). Verbs that are nouns too
// ("transfer", "design", "control") do modify heads, and are not here.
const baseVerbs = `lack undermine
	rely generate identify enhance validate mitigate establish prove analyze generalize
	solve derive overcome align adapt observe predict optimize extend represent suggest confirm
	argue refine understand encode ask obtain quantify maintain recover detect operate uncover
	excel maximize degrade reflect retain synthesize verify discover characterize indicate induce
	arise depend distinguish contribute assume avoid enforce include formalize define utilize
	determine prevent interact incur tend evolve minimize infer follow examine converge
	disentangle appear alleviate formulate interpret reconstruct contain elicit
	encourage vary reuse acquire retrieve prioritize promote instantiate exist believe amplify
	refer differ adjust propagate decompose describe distill forget simulate expand grow replace
	satisfy involve execute isolate inject ignore recognize strengthen emphasize impose eliminate
	diverge accumulate assign underperform modify occur choose correspond augment continue
	hypothesize reformulate respond activate memorize perceive translate manipulate inherit
	allocate engage decode dominate persist admit specify justify receive illustrate corroborate
	automate inspire restore navigate realize decouple constrain decide deploy disrupt enrich
	alter communicate internalize accommodate constitute pursue reinforce defend comprehend
	differentiate organize manage connect inform arrive attain clarify localize instill
	relate lose motivate violate hallucinate collaborate locate expect anticipate adhere reproduce
	empower modulate annotate reshape replicate attend restrict diminish evade protect imply
	conclude unlearn diagnose distort imitate substantiate reinterpret govern simplify
	reconcile sharpen supervise streamline behave earn sustain circumvent recommend erase
	initialize invoke penalize compensate impede debug calibrate counteract conceal classify
	compete regulate delete comply summarize distribute exacerbate specialize inflate necessitate
	extrapolate conquer undergo visualize mislead inspect broaden endow regularize redesign
	contend confront compose encapsulate orchestrate resemble customize intervene elucidate
	cooperate interpolate emulate survive retrain recast disclose generalise suffice accept resist
	commit accomplish diversify analyse categorize absorb instruct abstain coexist imagine seem
	tighten quantize exert`

// genericTasks are phrases the grammar finds that name no research
// problem: GUIDELINES.md's generic goals and whole disciplines.
var genericTasks = setOf("machine-learning deep-learning supervised-learning statistical-learning learning optimization policy-optimization")

// procedureHeads name what a method does rather than a problem: a phrase
// with one of them that spells the paper's own name ("Flawed-Aware
// Policy Optimization" of FAPO) is the name's long form.
var procedureHeads = setOf("learning optimization optimisation modeling modelling sampling distillation alignment tuning decoding matching")

// participles are the -ed and -ing words that modify a task head as
// adjectives or nouns ("supervised", "embodied", "remote sensing",
// "autonomous driving"); any other -ed, -ing or -ly word before a head
// is a verb or an adverb ("Exposing Privacy Leakage", "significantly
// improve").
var participles = setOf(`supervised unsupervised self-supervised semi-supervised weakly-supervised
	constrained unconstrained structured unstructured federated embodied personalized personalised
	distributed decentralized centralized masked guided conditioned grounded augmented labeled
	unlabeled labelled unlabelled automated interleaved controlled fixed layered shared learned gated
	fused weighted coupled decoupled rectified distilled quantized pretrained randomized
	reasoning training processing imaging sensing computing driving planning tracking
	modeling modelling mining clustering ranking understanding matching editing forecasting
	retrieval fine-tuning pretraining pre-training post-training prompting decoding sampling
	coding programming routing scheduling queueing queuing manufacturing engineering rendering monitoring
	anomaly assembly family early multi-agent private`)

// phrase is a task phrase found in the text: its canonical name and the
// cleaned bytes it covers.
type phrase struct {
	name       string
	start, end int
	// agent marks a phrase made from an agent noun ("image tokenizer"):
	// a technique of that name does not explain the task it does.
	agent bool
	// cued marks a phrase the text calls a problem ("the problem of
	// X"): it is in focus wherever it stands.
	cued bool
}

// maxModifiers bounds a phrase's modifiers: past three, the words to the
// left are a clause, not a label.
const maxModifiers = 3

// statingVerbs state the problem a paper works on: "we study the problem
// of contextual online bilateral trade", "we focus on the relative
// over-generalization issue".
var statingVerbs = setOf("study studies consider considers address addresses tackle tackles investigate investigates focus focuses")

// problemNouns are the nouns that say the phrase beside them is a
// problem: "the problem of X", "the X issue", "a phenomenon known as X".
var problemNouns = setOf("problem problems issue task tasks phenomenon setting challenge")

// cuedProblems returns the noun phrases the abstract itself calls its
// problem, whatever their head: "we study the problem of X", "we focus on
// the X issue", "a phenomenon known as X", "a novel task, X,". Such a
// phrase is the problem wherever it stands. A gerund there ("the problem
// of estimating ...") starts a clause, which the gerund grammar reads
// instead, and one word ("robustness") is a goal rather than a problem.
func (w *work) cuedProblems() []phrase {
	var out []phrase
	for i := w.bodyWord; i+2 < len(w.words); i++ {
		wd := w.words[i]
		if wd.class&problemCue == 0 {
			continue
		}
		switch {
		case statingVerbs[wd.lower] && !wd.stop && w.introducedBy(i):
			the := i + 1
			if w.words[the].lower == "on" {
				the++ // "we focus on the X issue"
			}
			if the+1 >= len(w.words) || w.words[the].lower != "the" || w.words[the-1].stop || w.words[the].stop {
				continue
			}
			if the+2 < len(w.words) && w.words[the+1].lower == "problem" && w.words[the+2].lower == "of" && !w.words[the+1].comma {
				if p, ok := w.cuedPhrase(the + 3); ok {
					out = append(out, p)
				}
				continue
			}
			// "we focus on the X (XO) issue": the phrase before the
			// noun that calls it one.
			if p, ok := w.cuedPhrase(the + 1); ok {
				n := w.wordAfter(p.end)
				if n+1 < len(w.words) && w.words[n].open && w.words[n].close && acronymLike(strings.Trim(w.words[n].text, "()[]")) {
					n++
				}
				if n < len(w.words) && problemNouns[w.words[n].lower] {
					out = append(out, p)
				}
			}
		case namingWord&wd.class != 0 && wd.lower != "namely" || wd.lower == "known" && w.words[i+1].lower == "as":
			// "a phenomenon known as X", "a new task called X".
			from := i + 1
			if wd.lower == "known" {
				from++
			}
			if i == 0 || w.words[i-1].stop || !problemNouns[w.words[i-1].lower] || from >= len(w.words) {
				continue
			}
			if p, ok := w.cuedPhrase(from); ok {
				out = append(out, p)
			}
		case wd.comma && (wd.lower == "task" || wd.lower == "problem") && i >= 2 &&
			(w.words[i-1].lower == "novel" || w.words[i-1].lower == "new"):
			// "we introduce a novel task, multi-view customization,
			// which ...": an appositive names it.
			if p, ok := w.cuedPhrase(i + 1); ok && w.words[w.wordAfter(p.end)-1].comma {
				out = append(out, p)
			}
		}
	}
	return out
}

// titleMethodSide reports whether the title phrase p names the method
// rather than the problem: it precedes the "for" of a purpose and its
// head names a procedure ("UniTrack: Differentiable Graph
// Representation Learning for Multi-Object Tracking", "MATRIX: Mask
// Track Alignment for Interaction-aware Video Generation"). After
// "with" a phrase is as often the problem ("... Language Models with
// Learned Memory Management") as the method.
func (w *work) titleMethodSide(p phrase) bool {
	if p.start >= w.body {
		return false
	}
	f := strings.Fields(p.name)
	if !procedureHeads[f[len(f)-1]] {
		return false
	}
	for j := w.wordAfter(p.end); j < w.bodyWord && !w.words[j].stop; j++ {
		if w.words[j].lower == "for" {
			_, ok := w.titlePurpose()
			return ok || w.taskAfter(w.words[j].end)
		}
	}
	return false
}

// taskAfter reports whether a vocabulary task is mentioned in the title
// after cleaned offset at: "... for Interaction-aware Video Generation".
func (w *work) taskAfter(at int) bool {
	a, _ := w.text.Span(at, at)
	for _, f := range w.order {
		if f.kind != graph.Task || f.entry < 0 {
			continue
		}
		for _, m := range f.mentions {
			if m.Start >= a && m.Start < w.base {
				return true
			}
		}
	}
	return false
}

// contributionPurpose reports whether the phrase that starts at cleaned
// offset at is what the paper's contribution is for: "we introduce
// FaithBench, a benchmark for instance-level CoT unfaithfulness
// detection", "we propose GAR for comprehensive region-level visual
// understanding". Only the contribution's own sentence counts, and only
// its first "for".
func (w *work) contributionPurpose(at int) bool {
	i := w.wordAfter(at)
	if i < len(w.words) && w.words[i].class&taskGerund != 0 {
		// "a benchmark for evaluating X" names what the benchmark
		// does, at whatever length.
		return false
	}
	j := i - 1
	for j >= w.bodyWord && i-j <= 3 && w.words[j].lower != "for" && w.words[j].class&notModifier != 0 && !w.words[j].stop && !w.words[j].comma {
		j-- // "for comprehensive ...", "for the ..."
	}
	if j < w.bodyWord || w.words[j].lower != "for" {
		return false
	}
	for k := j - 1; k >= w.bodyWord && !w.words[k].stop; k-- {
		switch {
		case w.words[k].lower == "for":
			return false
		case w.ownIntro(k):
			return w.firstContribution(k)
		}
	}
	return false
}

// ownIntro reports whether word k is an intro verb the paper says of
// itself: "we propose", "this paper introduces".
func (w *work) ownIntro(k int) bool {
	return w.words[k].class&introVerb != 0 && k > 0 && (w.words[k-1].lower == "we" || w.introducedBy(k))
}

// firstContribution reports whether the intro verb at word k is the
// abstract's first that the paper says of itself.
func (w *work) firstContribution(k int) bool {
	if !w.intro.known {
		w.intro.known, w.intro.at = true, -1
		for j := w.bodyWord; j < len(w.words); j++ {
			if w.ownIntro(j) {
				w.intro.at = j
				break
			}
		}
	}
	return k == w.intro.at
}

// gauges are the adjectives that say how much of something there is,
// which makes the phrase a shortfall rather than a problem's name.
var gauges = setOf("low high poor limited severe excessive insufficient")

// wordAfter returns the index of the first word that starts at or after
// cleaned offset at.
func (w *work) wordAfter(at int) int {
	i, _ := slices.BinarySearchFunc(w.words, at, func(wd word, at int) int { return wd.start - at })
	return i
}

// wordAtOrig is wordAfter for byte a of text.Orig, where mentions are:
// both orders agree.
func (w *work) wordAtOrig(a int) int {
	i, _ := slices.BinarySearchFunc(w.words, a, func(wd word, a int) int { s, _ := w.text.Span(wd.start, wd.start); return s - a })
	return i
}

// cuedPhrase returns the noun phrase of two to four modifiers that starts
// at word from and ends where the noun phrase does.
func (w *work) cuedPhrase(from int) (phrase, bool) {
	if from >= len(w.words) || w.words[from].class&taskGerund != 0 {
		return phrase{}, false
	}
	if gauges[w.words[from].lower] {
		return phrase{}, false // "the low query efficiency issue" is a shortfall
	}
	last := -1
	for j := from; j < len(w.words) && j-from <= maxModifiers; j++ {
		// A last -ing word is a noun: "alignment faking", "reward
		// hacking".
		noun := j > from && strings.HasSuffix(w.words[j].lower, "ing") && w.words[j].class&notModifier == 0 && (w.words[j].stop || w.words[j].comma || j+1 < len(w.words) && w.words[j+1].class&notModifier != 0)
		if !(w.modifier(j) || noun) || w.words[j].open && j > from {
			break
		}
		last = j
		if m := w.words[j]; m.stop || m.comma || m.close {
			break
		}
	}
	if last <= from {
		return phrase{}, false // one word ("robustness") is a goal
	}
	// The phrase ends where the text goes on with more of it: "the
	// problem of graph sparsification in data streams" ends at
	// "sparsification", not inside a longer noun phrase.
	if n := last + 1; n < len(w.words) && !w.words[last].stop && !w.words[last].comma && w.modifier(n) && !w.words[n].open && !problemNouns[w.words[n].lower] {
		return phrase{}, false
	}
	if problemNouns[w.words[last].lower] {
		return phrase{}, false
	}
	return phrase{name: w.phraseName(from, last+1, ""), start: w.words[from].start, end: w.words[last].end, cued: true}, true
}

// taskPhrases links the task phrases the paper is about, but for its own
// name. It stops early once ctx is done: the phrases are compared in
// pairs.
func (w *work) taskPhrases(ctx context.Context, name string) {
	var found []phrase
	for i := range w.words {
		if p, ok := w.phraseAt(i); ok {
			found = append(found, p)
		}
	}
	if p, ok := w.titlePurpose(); ok && !slices.ContainsFunc(found, func(q phrase) bool { return q.start <= p.start && p.end <= q.end }) {
		found = append(found, p)
	}
	for _, p := range w.cuedProblems() {
		if k := slices.IndexFunc(found, func(q phrase) bool { return q.start <= p.start && p.end <= q.end }); k >= 0 {
			found[k].cued = true
		} else {
			found = append(found, p)
		}
	}
	for i := range found {
		if ctx.Err() != nil {
			return
		}
		found[i].cued = found[i].cued || w.contributionPurpose(found[i].start)
	}
	// A denied phrase is no mention, and does not make another one twice
	// written.
	found = slices.DeleteFunc(found, func(p phrase) bool { return w.negated(p.start, p.end) })
	// A phrase is in focus in the title or the opening sentence, or when
	// the text writes it twice. Without a title, the opening sentence's
	// subject stands in for it: "Image quality assessment aims ...", not
	// "... to enable capability discovery", which with a title beside it
	// is more often the problem than the background.
	focus := make([]bool, len(found))
	for i, p := range found {
		if ctx.Err() != nil {
			return
		}
		a, _ := w.text.Span(p.start, p.end)
		focus[i] = p.cued || w.about(a) && (w.body > 0 || p.start < w.subjectEnd())
		// An agent noun written twice mid-abstract is a component ("a
		// diffusion planner"), not the problem.
		for _, q := range found {
			focus[i] = focus[i] || !p.agent && q.name == p.name && q.start != p.start
		}
	}
	if !shortestForms(ctx, found) {
		return
	}
	for i, p := range found {
		if ctx.Err() != nil {
			return
		}
		if genericTasks[strings.ReplaceAll(p.name, " ", "-")] ||
			w.coveredByEntity(p.start, p.end, p.agent) || w.namePart(p, name) || !p.cued && w.titleMethodSide(p) {
			continue
		}
		if a, _ := w.text.Span(p.start, p.end); !p.cued && (w.inBackdrop(w.wordAfter(p.start)) || w.inFieldList(a)) {
			continue
		}
		if !focus[i] {
			if w.spare.phrase.name == "" && w.contribution(p.start) {
				w.spare.phrase = p
			}
			continue
		}
		w.linkPhrase(p)
	}
}

// familyModifiers are the long forms of model families as modifiers, and
// the short forms task names use: "large language model evaluation" is
// LLM evaluation, "multi-modal reasoning" multimodal reasoning.
var familyModifiers = strings.NewReplacer(
	"multimodal large language model ", "MLLM ", "multi-modal large language model ", "MLLM ",
	"large language model ", "LLM ", "vision-language model ", "VLM ", "vision language model ", "VLM ",
	"multi-modal ", "multimodal ", "language model ", "LLM ")

// familyForm writes a task phrase's model family as task names do.
func familyForm(name string) string {
	if !strings.Contains(name, "model ") && !strings.Contains(name, "multi-modal") {
		return name
	}
	return familyModifiers.Replace(name)
}

// synonymHeads are heads that fields use for one another: "evaluation of
// image quality" is image quality assessment.
var synonymHeads = map[string]string{"evaluation": "assessment", "assessment": "evaluation", "defence": "defense", "modelling": "modeling", "localisation": "localization", "optimisation": "optimization"}

// modifierOrders returns name and, for two or three modifiers, the other
// orders of them before the head: "image autoregressive generation" is
// the vocabulary's autoregressive image generation.
func modifierOrders(name string) []string {
	f := strings.Fields(name)
	out := []string{name}
	switch len(f) {
	case 3:
		out = append(out, f[1]+" "+f[0]+" "+f[2])
	case 4:
		m, h := f[:3], f[3]
		for _, o := range [][3]int{{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
			out = append(out, m[o[0]]+" "+m[o[1]]+" "+m[o[2]]+" "+h)
		}
	}
	return out
}

// headSynonyms returns name and, when its head has a synonym, name with
// that head.
func headSynonyms(name string) []string {
	i := strings.LastIndexByte(name, ' ')
	if s, ok := synonymHeads[name[i+1:]]; ok {
		return []string{name, name[:i+1] + s}
	}
	return []string{name}
}

// contribution reports whether cleaned offset at is in a sentence about
// the paper's own work: "we ...", "our ...", "this paper ...".
func (w *work) contribution(at int) bool {
	i, _ := slices.BinarySearchFunc(w.words, at, func(wd word, at int) int { return wd.start - at })
	for j := min(i, len(w.words)-1); j >= w.bodyWord; j-- {
		if j < i && w.words[j].stop {
			break
		}
		switch w.words[j].lower {
		case "we", "our", "paper", "work":
			return true
		}
	}
	for j := i; j < len(w.words); j++ {
		switch w.words[j].lower {
		case "we", "our":
			return true
		}
		if w.words[j].stop {
			break
		}
	}
	return false
}

// subjectEnd returns the cleaned offset where the opening sentence's
// first six words end.
func (w *work) subjectEnd() int {
	i := min(w.bodyWord+6, len(w.words))
	if i == 0 {
		return 0
	}
	return w.words[i-1].end
}

// shortestForms names each phrase by the shortest form of it that the
// text also writes alone: with "ASR error correction" in the text,
// "generative ASR error correction" is ASR error correction, generative
// being how it is done. It reports false, leaving some phrases as they
// were, when it stopped because ctx was done.
func shortestForms(ctx context.Context, found []phrase) bool {
	for i := range found {
		if ctx.Err() != nil {
			return false
		}
		for _, q := range found {
			alone := q.end <= found[i].start || q.start >= found[i].end
			if alone && len(q.name) < len(found[i].name) && strings.HasSuffix(found[i].name, " "+q.name) {
				found[i].name = q.name
			}
		}
	}
	return true
}

// linkPhrase links the task p names: the vocabulary's, when p is another
// way to write one ("Generating Videos" is video generation), else p as a
// new task, specialising the longest vocabulary task it ends with. The
// vocabulary tasks matched inside p lose that mention: "Incomplete
// Multi-View Multi-Label Classification" is one task, not also
// multi-label classification.
func (w *work) linkPhrase(p phrase) {
	v := w.x.v
	p.name = familyForm(p.name)
	for _, name := range headSynonyms(p.name) {
		for _, order := range modifierOrders(name) {
			if e, ok := v.tasks[normPhrase(order)]; ok {
				w.add(graph.Task, v.entries[e].name, e, p.start, p.end)
				return
			}
		}
	}
	broader := -1
	words := strings.Fields(p.name)
	for k := 1; k < len(words) && broader < 0; k++ {
		if e, ok := v.tasks[normPhrase(strings.Join(words[k:], " "))]; ok {
			broader = e
		}
	}
	a, b := w.text.Span(p.start, p.end)
	for _, f := range slices.Clone(w.order) {
		if f.kind != graph.Task || f.entry < 0 {
			continue
		}
		f.mentions = slices.DeleteFunc(f.mentions, func(m graph.Mention) bool { return a <= m.Start && m.End <= b })
		if len(f.mentions) == 0 {
			w.unlink(f)
		}
	}
	w.add(graph.Task, p.name, -1, p.start, p.end)
	if f, ok := w.found[graph.EntityID(graph.Task, p.name)]; ok && f.broader < 0 {
		f.broader = broader
	}
	if w.methodPhrase(words) {
		w.add(graph.Technique, p.name, -1, p.start, p.end)
	}
}

// methodPhrase reports whether a new task phrase is also a method, as
// the roles of the vocabulary are: a kind of training ("policy-based
// training"), or of a technique the vocabulary names in two words or more
// ("skill-based reinforcement learning"). Heads such as "alignment" or
// "modeling" alone name a problem as often as a method.
func (w *work) methodPhrase(words []string) bool {
	if words[len(words)-1] == "training" {
		return true
	}
	for k := 1; k < len(words)-1; k++ {
		// "graph machine learning" is a field, not a kind of method.
		if genericTasks[strings.Join(words[k:], "-")] {
			return false
		}
		if _, ok := w.x.v.byKey[graph.EntityID(graph.Technique, strings.Join(words[k:], " "))]; ok {
			return true
		}
	}
	return false
}

// namePart reports whether p is a name rather than a problem: part of
// the paper's own name ("Carré du champ flow matching"), or capitalised
// word by word inside a sentence, as the long forms of names are ("Mask
// Track Alignment (MATRIX)").
func (w *work) namePart(p phrase, name string) bool {
	text := w.text.Clean[p.start:p.end]
	if name != "" && (strings.Contains(name, text) || strings.Contains(text, name)) || w.titleNotion != "" && strings.Contains(w.titleNotion, text) {
		return true
	}
	if f := strings.Fields(p.name); name != "" && procedureHeads[f[len(f)-1]] && spells(name, p.name) {
		return true
	}
	if p.start < w.body {
		return false // titles capitalise every word
	}
	for _, f := range strings.Fields(text) {
		if !capitalised(f) && !acronymLike(f) {
			return false
		}
	}
	return !w.problemAcronym(p, name)
}

// problemAcronym reports whether the capitalised phrase p is the long
// form of an acronym of a problem rather than of a method: "Future
// Satellite Image Forecasting (FSIF)" where the paper is not FSIF and the
// head names no procedure (as "Policy Optimization" of an unknown "XPO"
// does).
func (w *work) problemAcronym(p phrase, name string) bool {
	f := strings.Fields(p.name)
	if procedureHeads[f[len(f)-1]] {
		return false
	}
	i, ok := slices.BinarySearchFunc(w.words, p.end, func(wd word, at int) int { return wd.end - at })
	if !ok || i+1 >= len(w.words) {
		return false
	}
	next := w.words[i+1]
	acr := strings.Trim(next.text, "()[],.;:")
	return next.open && acronymLike(acr) && singular(acr) != name && acr != name
}

// spells reports whether the capitals of name, in order, are letters of
// phrase, the first one its first: FAPO of "flawed-aware policy
// optimization".
func spells(name, phrase string) bool {
	var caps []byte
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 'A' && c <= 'Z' {
			caps = append(caps, c+'a'-'A')
		}
	}
	if len(caps) < 2 || phrase == "" || phrase[0] != caps[0] {
		return false
	}
	k := 0
	for i := 0; i < len(phrase) && k < len(caps); i++ {
		if phrase[i] == caps[k] {
			k++
		}
	}
	return k == len(caps)
}

// coveredByEntity reports whether cleaned bytes [start, end) are exactly
// a vocabulary match, or inside one: the vocabulary's name for them wins.
// For an agent noun only a task's match counts.
func (w *work) coveredByEntity(start, end int, agent bool) bool {
	a, b := w.text.Span(start, end)
	for _, f := range w.order {
		if f.entry < 0 || f.kind == graph.Modality || agent && f.kind != graph.Task {
			continue
		}
		for _, m := range f.mentions {
			if m.Start <= a && b <= m.End {
				return true
			}
		}
	}
	return false
}

// phraseAt returns the task phrase whose head is word i, if any.
func (w *work) phraseAt(i int) (phrase, bool) {
	wd := w.words[i]
	if wd.class&(taskGerund|agentNoun|taskHead) == 0 {
		return phrase{}, false
	}
	if wd.class&taskGerund != 0 && w.startsClause(i) {
		// "Forecasting Future Satellite Images" is future satellite
		// image forecasting; "evaluating the robustness of X" robustness
		// evaluation, where the object is itself a problem's word.
		if n := i + 1; n+1 < len(w.words) && w.words[n].lower == "the" && !wd.stop && !wd.comma && w.words[n+1].class&taskHead != 0 && w.words[n+1].class&taskGerund == 0 {
			if p, ok := w.objectPhrase(i, taskGerunds[wd.lower], n+1); ok {
				return p, true
			}
		}
		return w.objectPhrase(i, taskGerunds[wd.lower], i+1)
	}
	head, agent := wd.lower, false
	if wd.class&agentNoun != 0 {
		head, agent = agentHeads[singularWord(head)], true
	} else if wd.class&taskHead == 0 {
		return phrase{}, false
	}
	if studyHeads[head] && w.studyOfItsOwn(i) {
		return phrase{}, false
	}
	// "reinforcement learning of large language models" is no learning
	// of them: the head ends a vocabulary match.
	inMatch := i > 0 && w.taken[wd.start] && w.taken[w.words[i-1].start] && !w.words[i-1].stop && !w.words[i-1].comma
	if !wd.stop && !wd.comma && !wd.close && i+2 < len(w.words) && w.words[i+1].lower == "of" && !inMatch {
		from := i + 2
		// "Tracking of Any Point" is point tracking.
		if w.words[from].class&determiner != 0 || w.words[from].lower == "any" {
			from++
		}
		if p, ok := w.objectPhrase(i, head, from); ok {
			// "Personalized alignment of large language models" is
			// personalized LLM alignment: a participle before the head
			// says what kind.
			if j := i - 1; j >= 0 && j != w.bodyWord-1 && w.words[j].class&participle != 0 && !w.words[j].stop && !w.words[j].comma && w.modifier(j) {
				p.name = modifierForm(w.words[j].text) + " " + p.name
				p.start = w.words[j].start
			}
			return p, true
		}
	}
	if head == "translation" {
		if from, ok := w.languagePair(i); ok {
			// "an English to French translation task", "English-German
			// translation": machine translation, wherever it is written.
			return phrase{name: "machine translation", start: w.words[from].start, end: wd.end, cued: true}, true
		}
	}
	first := w.modifiersBefore(i)
	if w.modifiesLaterHead(i) {
		return phrase{}, false
	}
	if first == i {
		if p, ok := w.sharedModifiers(i, head); ok {
			return p, true
		}
	}
	if first == i && i < w.bodyWord && fieldHeads[head] {
		return phrase{name: head, start: wd.start, end: wd.end}, true
	}
	if first == i || w.words[i].open && first < i {
		return phrase{}, false
	}
	return phrase{name: w.phraseName(first, i, head), start: w.words[first].start, end: wd.end, agent: agent}, true
}

// languages are the languages translation papers pair most, as words
// and as the codes of WMT's pairs ("En-De").
var languages = setOf(`english german french spanish chinese japanese korean russian arabic czech romanian
	finnish turkish hindi portuguese italian dutch vietnamese estonian latvian lithuanian kazakh gujarati
	en de fr es zh ja ko ru ar cs ro fi tr hi pt it nl vi`)

// languagePair returns the first word of the language pair before the
// head at word i ("English to French", "English-German", "En-De"), and
// whether there is one.
func (w *work) languagePair(i int) (int, bool) {
	language := func(j int) bool {
		if j < 0 || j == w.bodyWord-1 || w.words[j].stop || w.words[j].comma {
			return false
		}
		for _, part := range strings.Split(w.words[j].lower, "-") {
			if !languages[part] {
				return false
			}
		}
		return true
	}
	if !language(i - 1) {
		return 0, false
	}
	if to := i - 2; to > 0 && (w.words[to].lower == "to" || w.words[to].lower == "into") && language(to-1) {
		return to - 1, true
	}
	return i - 1, strings.Contains(w.words[i-1].lower, "-")
}

// sharedModifiers returns the phrase of the head at word i that a
// coordination gives it the modifiers of the head before: "Multimodal
// Understanding and Generation" is multimodal generation too.
func (w *work) sharedModifiers(i int, head string) (phrase, bool) {
	if i < 3 || w.words[i-1].lower != "and" || i-1 == w.bodyWord {
		return phrase{}, false
	}
	h := i - 2
	if p := w.words[h]; p.stop || p.comma || p.class&taskHead == 0 || p.class&taskGerund != 0 || w.words[i-1].stop {
		return phrase{}, false
	}
	first := w.modifiersBefore(h)
	if first == h {
		return phrase{}, false
	}
	return phrase{name: w.phraseName(first, h, head), start: w.words[i].start, end: w.words[i].end}, true
}

// modifiesLaterHead reports whether the head at word i is a modifier of
// a later head in the same noun phrase, which names the problem: in "RL
// Verifier Generation" the problem is the generation, in "Reasoning
// Intensive Retrieval" the retrieval.
func (w *work) modifiesLaterHead(i int) bool {
	for k := i + 1; k < len(w.words) && k-i <= maxModifiers; k++ {
		if p := w.words[k-1]; p.stop || p.comma || p.close || k == w.bodyWord || w.words[k].open {
			return false
		}
		if w.words[k].class&(taskHead|agentNoun) != 0 && w.words[k].class&taskGerund == 0 {
			return w.modifiersBefore(k) <= i
		}
		if !w.modifier(k) {
			return false
		}
	}
	return false
}

// studyHeads are heads that also name the paper's own kind of work.
var studyHeads = setOf("analysis evaluation assessment understanding")

// studyOfItsOwn reports whether the study head at word i follows an
// indefinite article a few words back, as the paper's description of its
// own work does ("A Pairwise Analysis on ...", "A Theoretical Analysis of
// Multi-Epoch Scaling"): a kind of study, not a field's problem.
func (w *work) studyOfItsOwn(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch wd := w.words[j]; {
		case wd.lower == "a" || wd.lower == "an":
			return true
		case wd.stop || wd.comma:
			return false
		}
	}
	return false
}

// modifiersBefore returns the index of the first of the modifiers before
// word i, i itself when there are none.
func (w *work) modifiersBefore(i int) int {
	first := i
	for j := i - 1; j >= 0 && i-j <= maxModifiers; j-- {
		m := w.words[j]
		if m.stop || m.comma || m.close || j == w.bodyWord-1 || !w.modifier(j) {
			break
		}
		if j > 0 && w.words[j-1].lower == "to" && !w.words[j-1].stop {
			break // "to Prevent X": an infinitive's verb
		}
		if mannerAdjective(m.lower) {
			break // "diffusion-based image compositing" is image compositing
		}
		first = j
		if m.open {
			break
		}
	}
	// "Globally Aware Optimization": an adverb before the modifiers
	// makes the first an adjective of its, which names no problem
	// ("visually grounded reasoning" keeps its participle).
	if first < i && first > 0 && first != w.bodyWord {
		if p := w.words[first-1]; !p.stop && !p.comma && strings.HasSuffix(p.lower, "ly") && p.class&participle == 0 && len(p.lower) > 4 && w.words[first].class&participle == 0 {
			first++
		}
	}
	return first
}

// mannerSuffixes end the compound adjectives that say how a method
// works rather than what problem it solves: "diffusion-based",
// "LLM-driven", "uncertainty-aware". ("-guided" stays: "instruction-guided
// image editing" is a field's label.)
var mannerSuffixes = []string{"-based", "-driven", "-aware", "-informed", "-aligned", "-enhanced", "-inspired", "-powered", "-assisted", "-crafted", "-attentive"}

// mannerAdjective reports whether the lower-case word s is such an
// adjective.
func mannerAdjective(s string) bool {
	for _, suf := range mannerSuffixes {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}

// startsClause reports whether word i opens a title, a sentence or a
// clause ("... by Tracing ..."), where a gerund is a verb of the paper's
// own rather than a noun.
func (w *work) startsClause(i int) bool {
	if i == 0 || i == w.bodyWord || w.words[i-1].stop {
		return true
	}
	switch w.words[i-1].lower {
	case "for", "by", "via", "towards", "toward", "on", "to":
		return true
	}
	return false
}

// phraseName is the canonical name of words from..to-1 as modifiers,
// then head when there is one.
func (w *work) phraseName(from, to int, head string) string {
	parts := make([]string, 0, to-from+1)
	for j := from; j < to; j++ {
		parts = append(parts, modifierForm(w.words[j].text))
	}
	if head != "" {
		parts = append(parts, head)
	}
	return strings.Join(parts, " ")
}

// objectPhrase names the problem of head applied to the object that
// starts at word from: modifiers, then a last noun.
func (w *work) objectPhrase(i int, head string, from int) (phrase, bool) {
	if w.words[i].stop || w.words[i].comma {
		return phrase{}, false
	}
	last := -1
	for j := from; j < len(w.words) && j-from < maxModifiers+1; j++ {
		// "Synthesis of Federated Learning Systems": inside an object
		// "learning" is a noun.
		noun := j > from && w.words[j].lower == "learning" && !w.words[j-1].stop && !w.words[j-1].comma &&
			!w.words[j].stop && !w.words[j].comma && j+1 < len(w.words) && w.modifier(j+1)
		if j == w.bodyWord || !(w.modifier(j) || noun) || w.words[j].open || j > from && w.verbAfterPlural(j) {
			break
		}
		last = j
		if m := w.words[j]; m.stop || m.comma || m.close {
			break
		}
	}
	if last < 0 {
		return phrase{}, false
	}
	// "Evaluating Multi-Source Information Seeking": the object runs on
	// into a head of its own, and is that phrase, not "information".
	if n := last + 1; n < len(w.words) && n != w.bodyWord && !w.words[last].stop && !w.words[last].comma && w.words[n].class&(taskHead|taskGerund) != 0 {
		return phrase{}, false
	}
	return phrase{name: w.phraseName(from, last+1, head), start: w.words[i].start, end: w.words[last].end}, true
}

// verbAfterPlural reports whether word j, an -s word after a plural
// noun, is the verb of a clause: "alignment of large language models
// adapts responses".
func (w *work) verbAfterPlural(j int) bool {
	prev, cur := w.words[j-1].lower, w.words[j].lower
	plural := func(s string) bool { return len(s) > 3 && singularWord(s) != s }
	return plural(prev) && strings.HasSuffix(cur, "s") && plural(cur) && !acronymLike(w.words[j].text)
}

// modifier reports whether word j can modify a task head: a content word
// or an acronym, not a number, a coined name or the paper's own method.
func (w *work) modifier(j int) bool {
	m := w.words[j]
	if m.class&notModifier != 0 || len(m.text) < 2 || hasOddChar(m.text) {
		return false
	}
	if m.named && !acronymLike(m.text) && !(j < w.bodyWord && titleCased(m.text)) {
		return false
	}
	if m.class&participle == 0 && !strings.Contains(m.lower, "-") &&
		(strings.HasSuffix(m.lower, "ing") || strings.HasSuffix(m.lower, "ed") || strings.HasSuffix(m.lower, "ly")) {
		return false
	}
	for i := 0; i < len(m.lower); i++ {
		if c := m.lower[i]; !(c >= 'a' && c <= 'z' || c == '-' || c >= '0' && c <= '9' && acronymLike(m.text)) {
			return false
		}
	}
	return true
}

// titleCased reports whether s is an ordinary hyphenated word in title
// case ("Multi-View", "Text-to-Image"), which nameLike takes for a name.
func titleCased(s string) bool {
	for _, p := range strings.Split(s, "-") {
		if p != "" && !capitalised(p) && !acronymLike(p) && strings.ToLower(p) != p {
			return false
		}
	}
	return true
}

// acronymLike reports whether s is an acronym a field uses as a word
// ("ASR", "LLMs", "3D", "RGB-D"): capitals and digits, an optional plural
// s, and hyphens.
func acronymLike(s string) bool {
	s = singular(s)
	caps := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			caps++
		case c >= '0' && c <= '9', c == '-':
		default:
			return false
		}
	}
	return caps > 0 && len(s) <= 8
}

// eponyms are the adjectives from names that a canonical task name keeps
// capitalised ("Bayesian inversion"), as titles capitalise every word.
var eponyms = func() map[string]string {
	m := map[string]string{}
	for _, w := range strings.Fields(`Bayesian Gaussian Markov Markovian Euclidean Riemannian Lagrangian Hamiltonian
		Fourier Laplacian Boltzmann Wasserstein Nash Hessian Jacobian Poisson Dirichlet Bernoulli Langevin
		Kalman Shapley Turing Hebbian Gibbs Bellman Newton Lipschitz Koopman Monte Carlo Bregman Stein`) {
		m[strings.ToLower(w)] = w
	}
	return m
}()

// modifierForm is how a modifier is written in a canonical task name:
// lower case but for acronyms ("ASR error correction") and eponyms,
// singular ("satellite images" -> "satellite image"), and "autoregressive"
// however hyphenated.
func modifierForm(s string) string {
	if strings.EqualFold(s, "auto-regressive") {
		return "autoregressive"
	}
	parts := strings.Split(s, "-")
	for i, p := range parts {
		switch {
		case acronymLike(p):
			parts[i] = singular(p)
		case eponyms[strings.ToLower(p)] != "":
			parts[i] = eponyms[strings.ToLower(p)]
		default:
			parts[i] = strings.ToLower(p)
		}
	}
	if n := len(parts) - 1; !acronymLike(parts[n]) {
		parts[n] = singularWord(parts[n])
	}
	return strings.Join(parts, "-")
}

// uncountable are the nouns ending in s that are singular and that the
// endings singularWord keeps do not catch.
var uncountable = setOf("bias alias atlas canvas lens news chaos series species")

// singularWord drops the plural s of an English noun: "images" ->
// "image", but not "analysis", "corpus", "dynamics" or "class".
func singularWord(s string) string {
	if len(s) <= 3 || !strings.HasSuffix(s, "s") || uncountable[s] {
		return s
	}
	if uncountable[strings.TrimSuffix(s, "es")] {
		return s[:len(s)-2] // "biases"
	}
	for _, es := range []string{"shes", "ches", "xes", "sses", "zzes"} {
		if strings.HasSuffix(s, es) && s != "caches" && s != "niches" {
			return s[:len(s)-2] // "meshes", "patches", "boxes", "classes"
		}
	}
	for _, keep := range []string{"ss", "us", "is", "ics", "ous", "ies"} {
		if strings.HasSuffix(s, keep) {
			if keep == "ies" && len(s) > 4 {
				return s[:len(s)-3] + "y"
			}
			return s
		}
	}
	return s[:len(s)-1]
}
