package extract

import (
	"slices"
	"testing"

	"github.com/papergraph/papergraph/graph"
)

// The classes of error that corpus-dev showed on abstracts no vocabulary
// was written from, one table each. The abstracts are written for the
// tests, in the field's phrasing: none is a corpus abstract.

// classCase is an abstract (with an optional title) and entities that
// must or must not be linked.
type classCase struct {
	name          string
	title, text   string
	kind          graph.Kind
	want, wantNot []string
	wantName      string // checked when not empty; "-" wants no name
}

func runClass(t *testing.T, cases []classCase) {
	t.Helper()
	x := newExtractor(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := extractDoc(t, x, Document{Title: tc.title, Abstract: tc.text})
			got := p.Names(tc.kind)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("%s = %q; want %q among them", tc.kind, got, w)
				}
			}
			for _, w := range tc.wantNot {
				if slices.Contains(got, w) {
					t.Errorf("%s = %q; want no %q", tc.kind, got, w)
				}
			}
			if tc.wantName == "-" && p.Name != "" {
				t.Errorf("name = %q; want none", p.Name)
			} else if tc.wantName != "" && tc.wantName != "-" && p.Name != tc.wantName {
				t.Errorf("name = %q; want %q", p.Name, tc.wantName)
			}
			checkMentions(t, p)
		})
	}
}

// Class 1: the role a concept plays decides its kind.
func TestClassRole(t *testing.T) {
	runClass(t, []classCase{
		{name: "a problem that is also a method family", kind: graph.Task,
			title: "Neural Collaborative Filtering", text: "We tackle the key problem in recommendation, collaborative filtering, from implicit feedback.",
			want: []string{"collaborative filtering"}},
		{name: "studied in the opening sentence", kind: graph.Task,
			text: "Parameter-Efficient Fine-Tuning (PEFT) methods have become crucial for adapting models. We propose a new adapter.",
			want: []string{"parameter-efficient fine-tuning"}},
		{name: "in the title", kind: graph.Task,
			title: "Scalable Watermarking of Generated Images", text: "We embed a signal in images.",
			want: []string{"watermarking"}},
		{name: "the kind of the paper's own method", kind: graph.Task,
			title: "DiaBlo: Diagonal Blocks Suffice", text: "Full fine-tuning is costly for large models. In this work, we present DiaBlo, a simple yet effective PEFT approach that updates diagonal blocks.",
			want: []string{"parameter-efficient fine-tuning"}},
		{name: "a training scheme of the paper's method says how", kind: graph.Task,
			title: "Critic Training at Scale", text: "Critics judge answers poorly. We propose CritRL, a reinforcement learning framework for critique generation.",
			wantNot: []string{"reinforcement learning"}},
		{name: "only used", kind: graph.Task,
			text: "We study image classification under shift. Our method is trained with contrastive learning and evaluated on ImageNet.",
			want: []string{"image classification"}, wantNot: []string{"contrastive learning"}},
		{name: "a title's method is a technique", kind: graph.Technique,
			title: "Incomplete Multi-View Classification via Shared Codebooks", text: "Views go missing.",
			want: []string{"shared codebook"}},
		{name: "with in a title is no method", kind: graph.Technique,
			title: "Adaptive Collaboration with Humans", text: "Agents defer.",
			wantNot: []string{"human"}},
		{name: "the method part of a title", kind: graph.Task,
			title: "Detecting Data Contamination via In-Context Learning", text: "Contamination inflates scores.",
			want: []string{"benchmark contamination detection"}, wantNot: []string{"in-context learning"}},
		{name: "both kinds", kind: graph.Technique,
			text: "Reinforcement learning (RL) agents explore poorly. We propose a new exploration bonus.",
			want: []string{"reinforcement learning"}},
		{name: "named after the family", kind: graph.Task,
			title: "Ternary Quantization for Large Language Models", text: "Large language models are costly to serve.",
			want: []string{"LLM quantization"}, wantNot: []string{"quantization"}},
	})
}

// Class 2: word forms and syntax.
func TestClassWordForms(t *testing.T) {
	runClass(t, []classCase{
		{name: "a technique as a verb", kind: graph.Technique,
			text: "We study 3D part understanding. We pre-train a dual encoder and instruction-tune the model on part data, then finetune it.",
			want: []string{"instruction tuning", "fine-tuning"}},
		{name: "a paradigm's agent noun", kind: graph.Technique,
			text: "We study exploration. ULE combines an in-context learner with adversarial goal generation.",
			want: []string{"in-context learning"}},
		{name: "a participle as an adjective", kind: graph.Technique,
			text:    "We study 3D part understanding with the fine-tuned models others released.",
			wantNot: []string{"fine-tuning"}},
		{name: "a verb standing for the paper's task", kind: graph.Technique,
			text:    "We study dataset distillation. Existing methods distill the data by matching gradients.",
			wantNot: []string{"knowledge distillation"}},
		{name: "agent noun", kind: graph.Task,
			title: "A Unified Image Tokenizer for Generation", text: "Tokenizers matter.",
			want: []string{"image tokenization"}},
		{name: "gerund and object", kind: graph.Task,
			title: "Forecasting Future Satellite Images with Diffusion", text: "Earth observation needs forecasts.",
			want: []string{"future satellite image forecasting"}},
		{name: "X of Y", kind: graph.Task,
			text: "Detection of data contamination is hard. We propose a test.",
			want: []string{"benchmark contamination detection"}},
		{name: "adjectival diffusion", kind: graph.Technique,
			text: "We propose a diffusion-based framework that refines textures.",
			want: []string{"diffusion model"}},
		{name: "adjectival self-supervised", kind: graph.Technique,
			text: "We pretrain a self-supervised encoder on unlabelled scans.",
			want: []string{"self-supervised learning"}},
		{name: "coordination leaves out the head", kind: graph.Technique,
			text: "We probe large language and vision-language models for bias.",
			want: []string{"large language model", "vision-language model"}},
		{name: "British spelling", kind: graph.Task,
			title: "Tokenisation over Bounded Alphabets is Hard", text: "Tokenisers split text.",
			want: []string{"tokenization"}},
		{name: "title case words", kind: graph.Task,
			title: "Incomplete Multi-View Multi-Label Classification via Shared Codebooks", text: "Views are missing.",
			want: []string{"incomplete multi-view multi-label classification"}, wantNot: []string{"multi-label classification"}},
	})
}

// Class 3: task phrases no list has, in any field.
func TestClassTaskPhrases(t *testing.T) {
	runClass(t, []classCase{
		{name: "modifiers and a head", kind: graph.Task,
			title: "HUMOF: Human Motion Forecasting in Social Scenes", text: "Crowds are complex.",
			want: []string{"human motion forecasting"}},
		{name: "acronym modifier", kind: graph.Task,
			text: "Generative ASR error correction uses N-best lists. ASR error correction is our focus.",
			want: []string{"ASR error correction"}},
		{name: "a science field", kind: graph.Task,
			title: "Seismic Wavefield Reconstruction with Neural Operators", text: "Sensors are sparse.",
			want: []string{"seismic wavefield reconstruction"}},
		{name: "a title's purpose", kind: graph.Task,
			title: "Geometric Autoencoder Priors for Bayesian Inversion", text: "Inverse problems are ill-posed.",
			want: []string{"Bayesian inversion"}},
		{name: "praise is not a modifier", kind: graph.Task,
			title: "Efficient and Robust Image Restoration", text: "Images degrade.",
			want: []string{"image restoration"}, wantNot: []string{"robust image restoration"}},
		{name: "a verb is not a modifier", kind: graph.Task,
			title: "Reasoning Boosts Opinion Alignment in LLMs", text: "Opinions differ.",
			want: []string{"opinion alignment"}, wantNot: []string{"boosts opinion alignment"}},
		{name: "a clause's verb after its subject is not a modifier", kind: graph.Task,
			title: "Spurious Cues Undermine Robot Safety Tuning", text: "We find current vision-language models often lack grounded understanding.",
			wantNot: []string{"cues undermine robot safety", "undermine robot safety", "lack grounded understanding", "often lack grounded understanding"}},
		{name: "a verb's -s form after a singular subject", kind: graph.Task,
			title: "Sketch Prompting Elicits Reasoning in Language Models", text: "We explore prompts.",
			wantNot: []string{"sketch prompting elicit reasoning", "prompting elicit reasoning"}},
		{name: "a language pair's translation", kind: graph.Task,
			text: "We map sequences to sequences. On an English to French translation task from WMT'14, the LSTM reaches 34.8 BLEU.",
			want: []string{"machine translation"}, wantNot: []string{"French translation"}},
		{name: "a hyphenated language pair", kind: graph.Task,
			text: "Attention helps. Our model improves En-De translation by 2 BLEU.",
			want: []string{"machine translation"}},
		{name: "a difficulty is no modifier", kind: graph.Task,
			text:    "Deep networks do well on difficult learning tasks. We map sequences with an LSTM.",
			wantNot: []string{"difficult learning"}},
		{name: "an irregular participle is no modifier", kind: graph.Task,
			text:    "Large datasets have driven deep learning methods to expert-level performance. We present a chest radiograph dataset.",
			wantNot: []string{"driven deep learning"}},
		{name: "the paper's own kind of study", kind: graph.Task,
			title: "A Pairwise Analysis of Sparse Autoencoders", text: "Sparse autoencoders explain features.",
			wantNot: []string{"pairwise analysis"}},
		{name: "a field's analysis", kind: graph.Task,
			title: "LAMDA: A Longitudinal Android Malware Benchmark for Concept Drift Analysis", text: "Malware evolves.",
			want: []string{"concept drift analysis"}},
		{name: "a passing phrase is not the task", kind: graph.Task,
			text:    "We study graph coloring. Prior work needs expensive feature extraction steps in the middle of the pipeline.",
			wantNot: []string{"feature extraction"}},
		{name: "the method's long form is not a task", kind: graph.Task,
			title: "FAPO: Flawed-Aware Policy Optimization for Reasoning", text: "Rollouts contain flaws.",
			wantNot: []string{"flawed-aware policy optimization"}},
		{name: "a kind of a technique is also a technique", kind: graph.Technique,
			title: "Skill-Based Reinforcement Learning for Long-Horizon Control", text: "Robots must chain skills.",
			want: []string{"skill-based reinforcement learning"}},
		{name: "a field is not a technique", kind: graph.Technique,
			title: "Peptide Machine Learning at Scale", text: "Peptides bind proteins.",
			wantNot: []string{"peptide machine learning"}},
		{name: "upsampling and filtering name problems", kind: graph.Task,
			title: "AnyUp: Universal Feature Upsampling", text: "Features from vision encoders are coarse.",
			want: []string{"feature upsampling"}},
		{name: "a stated problem", kind: graph.Task,
			text: "We study the problem of contextual online bilateral trade. At each round the learner posts a price.",
			want: []string{"contextual online bilateral trade"}},
		{name: "a stated goal is not a problem", kind: graph.Task,
			text:    "We study the problem of robustness against adversarial attacks in multi-agent systems.",
			wantNot: []string{"robustness"}},
		{name: "perception", kind: graph.Task,
			title: "SiMO: Robust Multimodal Collaborative Perception", text: "Vehicles share features.",
			want: []string{"multimodal collaborative perception"}},
		{name: "an arbitrary modifier says nothing", kind: graph.Task,
			title: "Animating Arbitrary Characters", text: "We study arbitrary character animation from one image.",
			want: []string{"character animation"}, wantNot: []string{"arbitrary character animation"}},
		{name: "a problem's capitalised long form", kind: graph.Task,
			text: "Wind Power Forecasting (WPF) is critical for grid operation. We propose GridNet, a spatio-temporal model.",
			want: []string{"wind power forecasting"}},
		{name: "the paper's own long form is not a task", kind: graph.Task,
			text:    "We propose Sparse Motion Tracking (SMT), a tracker for dense scenes. SMT is fast.",
			wantNot: []string{"sparse motion tracking"}},
		{name: "compositing", kind: graph.Task,
			title: "LayerMix: Generative Video Compositing with Diffusion", text: "Footage is combined by hand.",
			want: []string{"generative video compositing"}},
		{name: "customization", kind: graph.Task,
			text: "We introduce a novel task, multi-view customization, which controls camera pose. Multi-view customization needs consistency.",
			want: []string{"multi-view customization"}},
		{name: "how a method works is no modifier", kind: graph.Task,
			title: "Diffusion-Based Image Compositing at Scale", text: "Objects are pasted into scenes.",
			want: []string{"image compositing"}, wantNot: []string{"diffusion-based image compositing"}},
		{name: "an aware method", kind: graph.Task,
			title: "Uncertainty-Aware Trajectory Forecasting", text: "Agents move unpredictably.",
			want: []string{"trajectory prediction"}, wantNot: []string{"uncertainty-aware trajectory forecasting"}},
		{name: "guided stays in a field's label", kind: graph.Task,
			title: "Instruction-Guided Image Editing with Autoregression", text: "Edits follow text.",
			want: []string{"instruction-guided image editing"}},
		{name: "an adverb's adjective is no modifier", kind: graph.Task,
			title: "Globally Aware Trajectory Optimization", text: "Local methods stall.",
			wantNot: []string{"aware trajectory optimization"}},
		{name: "an adverb's verb is no modifier", kind: graph.Task,
			title: "Models That Dynamically Adjust Reasoning", text: "Budgets vary.",
			wantNot: []string{"adjust reasoning"}},
		{name: "an adverb keeps a participle", kind: graph.Task,
			title: "Visually Grounded Reasoning for Charts", text: "Charts are dense.",
			want: []string{"grounded reasoning"}},
		{name: "a preposition is no modifier", kind: graph.Task,
			text:    "We propose LayerMix for video compositing. It keeps the video unchanged after editing, and after editing the scene stays.",
			wantNot: []string{"after editing"}},
		{name: "a participle before an inversion", kind: graph.Task,
			title: "Reward Models with User Memory", text: "Personalized alignment of large language models adapts responses to each user. We propose a reward model.",
			want: []string{"personalized LLM alignment"}, wantNot: []string{"LLM alignment"}},
		{name: "a model is no purpose", kind: graph.Task,
			title: "Tensor Decomposition for MoE Models", text: "Experts repeat parameters.",
			wantNot: []string{"MoE model"}},
		{name: "an inversion after a vocabulary match", kind: graph.Task,
			text:    "Verifiers give rewards for reinforcement learning of large language models. We synthesise test cases for code generation.",
			wantNot: []string{"LLM learning"}},
		{name: "learning inside an object", kind: graph.Task,
			title: "Helmsman: Synthesis of Federated Learning Systems with Agents", text: "Federated systems are hard to design.",
			want: []string{"federated learning system synthesis"}},
		{name: "a gerund's problem object", kind: graph.Task,
			title: "Preference Drops Change Rankings", text: "We propose a method for evaluating the robustness of popular ranking systems.",
			want: []string{"robustness evaluation"}},
		{name: "a procedure before the title's purpose is the method", kind: graph.Task,
			title: "UniTrack: Differentiable Graph Matching Learning for Multi-Object Tracking", text: "Trackers lose identities.",
			want: []string{"multi-object tracking"}, wantNot: []string{"differentiable graph matching learning"}},
		{name: "a problem before the title's purpose stays", kind: graph.Task,
			title: "Seismic Wavefield Reconstruction for Early Warning", text: "Sensors are sparse.",
			want: []string{"seismic wavefield reconstruction"}},
		{name: "a matching procedure is the name's long form", kind: graph.Task,
			text:    "Samples must satisfy constraints. We develop gauge flow matching (GFM), a framework for constrained generative modeling.",
			wantNot: []string{"gauge flow matching"}},
		{name: "a head that modifies a later head", kind: graph.Task,
			title: "TestGen: RL Verifier Generation for Competitive Coding", text: "Verifiers need hard tests.",
			want: []string{"RL verifier generation"}, wantNot: []string{"RL verification"}},
		{name: "a field head inside a longer phrase", kind: graph.Task,
			title: "Reranker-Guided Search Improves Reasoning Intensive Retrieval", text: "Rerankers are slow.",
			want: []string{"reasoning intensive retrieval"}, wantNot: []string{"reasoning"}},
		{name: "a coordination shares its modifiers", kind: graph.Task,
			title: "SemTok: A Unified Image Tokenizer for Multimodal Understanding and Generation", text: "Tokenizers trade semantics for pixels.",
			want: []string{"multimodal understanding", "multimodal generation"}},
		{name: "a verb shares nothing", kind: graph.Task,
			text:    "Unified models unify visual understanding and generation in one network. We align their features.",
			wantNot: []string{"unify visual generation"}},
		{name: "a title's purpose after a manner adjective", kind: graph.Task,
			title: "MATRIX: Mask Track Alignment for Interaction-aware Video Generation", text: "Video models miss interactions.",
			want: []string{"video generation"}, wantNot: []string{"mask track alignment"}},
		{name: "calibration names a problem", kind: graph.Task,
			title: "The Emergence of Semantic Calibration in LLMs", text: "Models lack confidence estimates.",
			want: []string{"semantic calibration"}},
		{name: "a shortfall's adjective is no modifier", kind: graph.Task,
			text:    "We study image classification. Prior models suffer from sub-optimal calibration on shifted data.",
			wantNot: []string{"sub-optimal calibration"}},
		{name: "auto-regressive is autoregressive", kind: graph.Task,
			title: "Fast Auto-Regressive Mesh Generation", text: "Artists want clean meshes.",
			want: []string{"autoregressive mesh generation"}},
		{name: "of any", kind: graph.Task,
			title: "Robust Tracking of Any Point in Long Video", text: "Points drift over time.",
			want: []string{"point tracking"}},
	})
}

// A phrase the abstract itself calls its problem is the task wherever it
// stands and whatever its head.
func TestClassCuedProblems(t *testing.T) {
	runClass(t, []classCase{
		{name: "a phenomenon known as", kind: graph.Task,
			text: "Language models can act differently in training and deployment, a phenomenon known as reward tampering. We measure it in three models.",
			want: []string{"reward tampering"}},
		{name: "the issue we focus on", kind: graph.Task,
			text: "Agents often fail together. We focus on the relative over-generalization (RO) issue in cooperative games. We prove a bound.",
			want: []string{"relative over-generalization"}},
		{name: "a new task named in apposition", kind: graph.Task,
			text: "Editors want control. Prior tools are slow. We introduce a new task, layout-aware poster editing, which edits posters by region.",
			want: []string{"layout-aware poster editing"}},
		{name: "a shortfall is no problem's name", kind: graph.Task,
			text:    "Preference learning needs labels. We address the low query efficiency issue of prior methods with a new sampler.",
			wantNot: []string{"low query efficiency"}},
		{name: "what the first contribution is for", kind: graph.Task,
			text: "Chains of thought can mislead. Prior studies look at mechanisms. We introduce FaithSet, a benchmark for instance-level rationale consistency detection across models.",
			want: []string{"instance-level rationale consistency detection"}},
		{name: "past praise to the purpose", kind: graph.Task,
			text: "Models see whole images. To fix this, we propose GAR for comprehensive region-level scene understanding. GAR replays features.",
			want: []string{"region-level scene understanding"}},
		{name: "what a later contribution is for is a part", kind: graph.Task,
			text:    "We propose GAR for region-level scene understanding. We also design a module for cross-view token matching.",
			wantNot: []string{"cross-view token matching"}},
		{name: "what a benchmark does is no field's name", kind: graph.Task,
			text:    "Agents act in apps for web navigation. We introduce AppSet, a benchmark for evaluating multistep tool invocation of vision-centric agents.",
			wantNot: []string{"multistep tool invocation evaluation"}},
		{name: "a plural in es", kind: graph.Task,
			title: "Fast Quadrilateral Meshes Generation", text: "Artists want quads.",
			want: []string{"quadrilateral mesh generation"}},
		{name: "a stated problem late in the abstract", kind: graph.Task,
			text: "Markets clear prices. Traders post bids. In this paper we study the problem of contextual bilateral pricing with noisy values.",
			want: []string{"contextual bilateral pricing"}},
	})
}

// A benchmark paper works on evaluating the model family it tests.
func TestClassBenchmarkTask(t *testing.T) {
	runClass(t, []classCase{
		{name: "a benchmark of a model family", kind: graph.Task,
			title: "DermBench: A Multimodal Benchmark for Skin Lesion Diagnosis",
			text:  "Multimodal large language models (MLLMs) are used in clinics. We test 20 MLLMs on 5,000 lesion images.",
			want:  []string{"MLLM evaluation"}},
		{name: "a benchmark on the way to a method", kind: graph.Task,
			title:   "ScoreNet: Reward Modeling for Image Editing",
			text:    "We first introduce EditBench, a benchmark of reward models built on vision-language models (VLMs). We then develop ScoreNet.",
			wantNot: []string{"VLM evaluation"}},
		{name: "the family's task is already named", kind: graph.Task,
			title: "SafeBench: Benchmarking LLM Safety Across Cultures",
			text:  "Large language models (LLMs) must be safe. We study LLM safety in 12 languages.",
			want:  []string{"LLM safety"}, wantNot: []string{"LLM evaluation"}},
	})
}

// Class 4: names the patterns missed.
func TestClassNames(t *testing.T) {
	runClass(t, []classCase{
		{name: "a known system's own paper calls it by name", kind: graph.Technique,
			text:     "We present a framework for instance segmentation. The method, called Mask R-CNN, extends Faster R-CNN by adding a mask branch.",
			wantName: "Mask R-CNN", want: []string{"Faster R-CNN"}, wantNot: []string{"Mask R-CNN"}},
		{name: "a known system's own paper presents it under its title", kind: graph.Technique,
			title: "SlowFast Networks for Video Recognition", text: "We present SlowFast networks for video recognition. A Slow pathway captures semantics.",
			wantName: "SlowFast", wantNot: []string{"SlowFast"}},
		{name: "a known system presented with an appositive", kind: graph.Technique,
			text:     "Here we present GraphSAGE, a general, inductive framework that leverages node features.",
			wantName: "GraphSAGE", wantNot: []string{"GraphSAGE"}},
		{name: "our model with modifiers, then its name", kind: graph.Technique,
			text:     "We validated a redesigned version of our neural network-based model, AlphaFold, in CASP14.",
			wantName: "AlphaFold"},
		{name: "a known acronym named as the paper's framework", kind: graph.Technique,
			text:     "We present a general framework named NCF, short for Neural network-based Collaborative Filtering.",
			wantName: "NCF"},
		{name: "a known technique's long form introduced with its short form", kind: graph.Technique,
			text:     "In this paper, we introduce the Temporal Fusion Transformer (TFT) -- a novel attention-based architecture for forecasting.",
			wantName: "TFT"},
		{name: "a known system the paper only builds on", kind: graph.Technique,
			title: "Q-learning with Posterior Sampling", text: "We introduce Q-Learning with Posterior Sampling (PSQL), a simple Q-learning-based algorithm.",
			wantName: "PSQL"},
		{name: "an acronym the text defines otherwise", kind: graph.Task,
			text: "Long-Tailed Recognition (LTR) remains hard. Experiments on five LTR benchmarks show gains.",
			want: []string{"long-tailed recognition"}, wantNot: []string{"learning to rank"}},
		{name: "a modifier order the vocabulary writes otherwise", kind: graph.Task,
			title: "Semantic Video Segmentation at Scale", text: "Frames are labelled densely.",
			want: []string{"video semantic segmentation"}},
		{name: "a common word capitalised by mistake", kind: graph.Dataset,
			text:    "CoT suits clinical reasoning. However, Current benchmarks for medical image understanding ignore it.",
			wantNot: []string{"Current"}},
		{name: "title prefix", title: "PlantRSR: A New Plant Dataset", text: "Plants are diverse.", wantName: "PlantRSR"},
		{name: "title prefix the abstract does not repeat", title: "Corvid: Generative Scene Completion from Video",
			text: "Scenes are incomplete. We complete them from video diffusion priors.", wantName: "Corvid"},
		{name: "lower-case title prefix", title: "rankflow: Ranking with Flows",
			text: "We introduce rankflow, a ranking model trained by flow matching.", wantName: "rankflow"},
		{name: "title prefix a vocabulary knows", title: "Falcon: Fast Proximal Cuts for Segmentation",
			text: "Normalized cuts are slow. Falcon solves them by proximal steps.", wantName: "Falcon"},
		{name: "title prefix a common noun", title: "Memorization: A Closer Look at Language Models",
			text: "We study memorization in language models.", wantName: "-"},
		{name: "title long form and short form", title: "Train on Validation (ToV): Fast Data Selection",
			text: "Selecting data is costly. We select examples by training on the validation set.", wantName: "ToV"},
		{name: "title long form with an acronym", title: "Egalitarian Gradient Descent: Faster Grokking",
			text: "We study egalitarian gradient descent (EGD), which equalises rates.", wantName: "EGD"},
		{name: "bold letters spell the acronym",
			text: "We extend context by ***Dro**pping the **P**ositional **E**mbeddings after training (DroPE)*.", wantName: "DroPE"},
		{name: "name before an appositive",
			text: "In this paper, we present VAREdit, a visual autoregressive (VAR) framework for editing.", wantName: "VAREdit"},
		{name: "to propose",
			text: "We draw inspiration from control theory to propose Textual Predictive Planning (TPP), a framework.", wantName: "TPP"},
		{name: "a concept is not the method",
			text: "We introduce the concept of Coherent Preference (CP). We then propose Conflict-Aware Optimization (CAO), a method.", wantName: "CAO"},
		{name: "our method, a quoted long form",
			text: "Routers are suboptimal. Our method, “Gated Expert Alignment (GEA)”, adds a regularizer.", wantName: "GEA"},
		{name: "our proposed method, a lower-case long form",
			text: "Targets cost memory. Our proposed method, iterated Shared Q-Learning (iS-QL), shares layers.", wantName: "iS-QL"},
		{name: "a short form of two words",
			text: "We introduce **In-Place Test-Time Training (In-Place TTT)**, a framework for LLMs.", wantName: "In-Place TTT"},
		{name: "capitalised words before an appositive",
			text: "This work presents Prior Depth Fusion, a framework that merges depth sources.", wantName: "Prior Depth Fusion"},
		{name: "a paradigm is no name",
			text: "We introduce Reasoning Surgery, a paradigm for editing reasoning. We build CircuitFix, a tool.", wantName: "CircuitFix"},
		{name: "after a colon",
			text: "We build two novel attacks with limited assumptions: DistinGap, which separates records, and RecGap.", wantName: "DistinGap"},
		{name: "a coined name before the head noun",
			text: "Reasoning across modalities is hard. We introduce a new M4ReasonBench benchmark for it.", wantName: "M4ReasonBench"},
		{name: "capitalised words before the head noun",
			text: "We introduce a cross-model Reasoning Trace Attribution framework for distilled students.", wantName: "Reasoning Trace Attribution"},
		{name: "a coined name after the head noun",
			text: "We present an agent framework SciPilot (Scientific Pilot) that plans experiments.", wantName: "SciPilot"},
		{name: "a lone capitalised adjective is no name",
			text: "We propose a Bayesian framework for calibration.", wantName: "-"},
		{name: "a problem's acronym before the head noun",
			text: "Incomplete multi-view clustering (IMVC) is hard. We propose a novel IMVC method.", wantName: "-"},
		{name: "an appositive after a new thing",
			text: "Scaling laws guide training. We train a competitive LLM family, *Velocity*, using these insights.", wantName: "Velocity"},
		{name: "an appositive after a prior system",
			text: "We fine-tune a strong base model, *Orion*, on our data.", wantName: "-"},
		{name: "which we call",
			text: "Gradients are imbalanced. We equalise them, which we call balanced gradient descent (BGD).", wantName: "BGD"},
		{name: "we call our method",
			text: "Sampling is slow. We call our method **FastFlow**, a distilled sampler.", wantName: "FastFlow"},
		{name: "a title's notion yields to the abstract's name", title: "Bargained Reasoning: On Provable Cooperation",
			text: "We propose a new bargained reasoning framework. We develop an algorithm called Stein variational bargained reasoning (SVBR).", wantName: "SVBR"},
		{name: "a title's name the abstract capitalises", title: "Generative Blocks World: Moving Things Around",
			text: "We present Generative Blocks World, a method. It uses primitives (GBP).", wantName: "Generative Blocks World"},
		{name: "a lower-case compound is no name",
			text: "To curate at scale, we design a human-AI synergistic two-stage pipeline.", wantName: "-"},
		{name: "a second verb of the sentence introduces",
			text: "We study how to explore in LLM reasoning and introduce CORAL (Count-based Rewards for Exploration), an intrinsic reward.", wantName: "CORAL"},
		{name: "capitalised words after a capitalised compound",
			text: "We frame planning as a game and build Long-Horizon Planning Arena to measure it.", wantName: "Long-Horizon Planning Arena"},
		{name: "an acronym glued to its long form",
			text: "We propose PALM(Preference Alignment with Listwise Margins), an objective for ranking.", wantName: "PALM"},
		{name: "a benchmark evaluated on is no name",
			text: "We train rerankers with SFT and present new state-of-the-art rerankers on the MTR benchmark.", wantName: "-"},
		{name: "math is no name",
			text: "We refine the analysis of clipped SGD and offer two faster rates, $\\mathcal{O}(\\sigma T^{-1})$ and more.", wantName: "-"},
		{name: "subject position with its expansion",
			text: "Prompts for image generation are hard to write. PROMO (Prompt Optimization) rewrites them for the model.", wantName: "PROMO"},
	})
}

// Class 5: mentions that are not links.
func TestClassNegation(t *testing.T) {
	runClass(t, []classCase{
		{name: "very little of it", kind: graph.Technique,
			text:    "We propose an alternative to Bayesian NNs that requires very little hyperparameter tuning.",
			want:    []string{"Bayesian neural network"},
			wantNot: []string{"hyperparameter optimization"}},
		{name: "little is known about it", kind: graph.Task,
			text: "Most work focuses on English, and little is known about multilingual reasoning. We distill models.",
			want: []string{"multilingual reasoning"}},
		{name: "without the need for", kind: graph.Technique,
			text:    "Our sampler adapts across tasks without the need for extensive hyperparameter tuning.",
			wantNot: []string{"hyperparameter optimization"}},
		{name: "avoids the need for", kind: graph.Technique,
			text:    "Our detector avoids the need for explicit surrogate models on unseen data.",
			wantNot: []string{"surrogate model"}},
		{name: "the paper's method spelled as a known dataset", kind: graph.Dataset,
			text:    "Quantizers are slow. We propose BBQ, the first compute-efficient quantization method. BBQ halves latency.",
			wantNot: []string{"BBQ"}, wantName: "BBQ"},
		{name: "the paper's benchmark spelled as a known dataset", kind: graph.Dataset,
			text: "Fairness is hard to measure. We introduce BBQ, a benchmark of biased questions for QA models.",
			want: []string{"BBQ"}, wantName: "BBQ"},
		{name: "removed", kind: graph.Technique,
			text:    "We introduce an architecture that removes tokenizers entirely and obviates the KV cache.",
			wantNot: []string{"tokenization", "KV cache"}},
		{name: "removed from", kind: graph.Technique,
			text: "Unlearning removes concepts from pretrained models.",
			want: []string{"pre-trained model"}},
		{name: "dispensed with", kind: graph.Technique,
			text:    "DGPO dispenses with the policy-gradient framework.",
			wantNot: []string{"policy gradient"}},
		{name: "public attention", kind: graph.Technique,
			text:    "The question is gaining increasing public attention.",
			wantNot: []string{"attention"}},
		{name: "without", kind: graph.Technique,
			text: "We sample posteriors without MCMC and fit a transformer.",
			want: []string{"transformer"}, wantNot: []string{"Markov chain Monte Carlo"}},
		{name: "does not require", kind: graph.Technique,
			text:    "Our method does not require reinforcement learning.",
			wantNot: []string{"reinforcement learning"}},
		{name: "X-free", kind: graph.Technique,
			text:    "An MCMC-free sampler for Bayesian models.",
			wantNot: []string{"Markov chain Monte Carlo"}},
		{name: "non-X", kind: graph.Technique,
			text:    "We compare non-autoregressive decoders with non-contrastive methods and non-linear probing.",
			wantNot: []string{"autoregressive model", "contrastive learning", "linear probing"}},
		{name: "non inside a word is no prefix", kind: graph.Technique,
			text: "Our canon-transformer hybrid fits a transformer.",
			want: []string{"transformer"}},
		{name: "avoiding", kind: graph.Task,
			text:    "Models exchange caches, avoiding explicit intermediate text generation.",
			wantNot: []string{"text generation"}},
		{name: "beyond, in a title", kind: graph.Task,
			title: "Interact-RAG: Reasoning Beyond Black-Box Retrieval", text: "Agents query corpora.",
			wantNot: []string{"black-box retrieval"}},
		{name: "not only", kind: graph.Technique,
			text: "It is not only a transformer but also a sampler.",
			want: []string{"transformer"}},
		{name: "unlike still builds on", kind: graph.Technique,
			text: "Unlike Low-Rank Adaptation (LoRA), our method tunes diagonal blocks.",
			want: []string{"LoRA"}},
	})
}

// Class 6: labels keep no raw LaTeX.
func TestClassLabels(t *testing.T) {
	x := newExtractor(t)
	p := extractDoc(t, x, Document{Title: "Peng's Q($\\lambda$) for Off-Policy Learning", Abstract: "We study Q(λ)."})
	if p.Label != "Peng's Q(λ) for Off-Policy Learning" {
		t.Errorf("Label = %q; want the title cleaned of markup", p.Label)
	}
}

// Named prior systems no vocabulary lists, known by the company they keep.
func TestClassSystems(t *testing.T) {
	runClass(t, []classCase{
		{name: "after the noun that says what it is", kind: graph.Technique,
			text: "We study data pruning. Compared to a similar clustering method K2M, we prune more.",
			want: []string{"K2M"}},
		{name: "an appositive of a model", kind: graph.Technique,
			text: "We study image editing. Applying our framework to a strong base model, EditGen3, improves it.",
			want: []string{"EditGen3"}},
		{name: "listed beside a known technique", kind: graph.Technique,
			text: "We study LLM quantization. Methods such as BitsAndBytes, AWQ, and GPTQ lose accuracy at 4 bits.",
			want: []string{"BitsAndBytes", "AWQ", "GPTQ"}},
		{name: "the paper's own framework", kind: graph.Technique,
			text:    "We propose a novel three-stage training framework, TriMPI, for policy learning.",
			wantNot: []string{"TriMPI"}},
		{name: "the paper's own checkpoint", kind: graph.Technique,
			text: "We propose FoldAgent, an agent that folds its context. FoldAgent-30B-A3B beats DeepSeek-V3.1-671B-A37B on BrowseComp.",
			want: []string{"DeepSeek-V3.1-671B-A37B"}, wantNot: []string{"FoldAgent-30B-A3B", "DeepSeek-V3"}},
		{name: "a range of model sizes", kind: graph.Technique,
			text:    "We study LLM pruning. Across models of 350M-66B parameters, such as OPT, and sub-10B models, pruning holds.",
			want:    []string{"OPT"},
			wantNot: []string{"350M-66B", "sub-10B"}},
		{name: "the paper's own model", kind: graph.Technique,
			text:    "We study remote sensing. The resulting model, GeoThinker, explains its answers.",
			wantNot: []string{"GeoThinker"}},
	})
}

// A one-word modality cue inside a method's name is no data, and a cue in
// a background list, in what a method borrows from, or in a video's frames
// is no evidence of the paper's data.
func TestClassModalityCues(t *testing.T) {
	runClass(t, []classCase{
		{name: "disciplines a method family came from", kind: graph.Modality,
			text:    "Recently, in computer vision and natural language processing, systems pretrained on large datasets have generalized well. We pretrain audio networks.",
			want:    []string{"audio"},
			wantNot: []string{"image", "text"}},
		{name: "disciplines the paper evaluates on", kind: graph.Modality,
			text: "We propose a new adapter. Across diverse NLP and vision tasks, it outperforms baselines.",
			want: []string{"image", "text"}},
		{name: "the fields a family of methods succeeded in", kind: graph.Modality,
			text:    "Deep neural networks have yielded immense success on speech recognition, computer vision and natural language processing. We study recommendation from implicit feedback.",
			wantNot: []string{"speech", "image", "text"}},
		{name: "success in the paper's own field", kind: graph.Modality,
			text: "Recent advances have shown success in eliciting reasoning in multimodal large language models (MLLMs). We reward thinking.",
			want: []string{"image", "text"}},
		{name: "3D RoPE", kind: graph.Modality,
			text: "We fit videos to LLMs. Naive 3D RoPE has imbalanced spectra, so we scale 3D positions.",
			want: []string{"video"}, wantNot: []string{"3d"}},
		{name: "a 3D decomposition", kind: graph.Modality,
			text:    "We compress MoE language models with a joint 3D decomposition of expert weights.",
			wantNot: []string{"3d"}},
		{name: "proximity graphs", kind: graph.Modality,
			text:    "We rerank documents by a greedy search on proximity graphs.",
			wantNot: []string{"graph"}},
		{name: "graph-based", kind: graph.Modality,
			text:    "We study planning in LLMs through a tractable graph-based abstraction.",
			wantNot: []string{"graph"}},
		{name: "3D scenes are data", kind: graph.Modality,
			text: "We reconstruct 3D scenes from photos.",
			want: []string{"3d"}},
		{name: "graphs are data", kind: graph.Modality,
			text: "We classify molecular graphs with message passing on the graph.",
			want: []string{"graph"}},
		{name: "fields a background sentence lists", kind: graph.Modality,
			text:    "Generative models have succeeded across diverse domains, including image synthesis and robotic planning. We constrain samples to convex sets.",
			wantNot: []string{"image", "action"}},
		{name: "fields of our own experiments", kind: graph.Modality,
			text: "We test our sampler in domains such as image synthesis.",
			want: []string{"image"}},
		{name: "what a method borrows from", kind: graph.Modality,
			text:    "Inspired by CTFs in natural language processing, this framework compares seismic solvers.",
			wantNot: []string{"text"}},
		{name: "an aim is no vision", kind: graph.Modality,
			text:    "We benchmark wavefield solvers. Our vision is to replace ad hoc comparisons.",
			wantNot: []string{"image"}},
		{name: "a video's frames are no images", kind: graph.Modality,
			text: "We track points in long videos, querying image features and visual tokens over past frames.",
			want: []string{"video"}, wantNot: []string{"image"}},
		{name: "images beside videos", kind: graph.Modality,
			text: "We train one model for image and video generation.",
			want: []string{"video", "image"}},
		{name: "a dataset family implies its data", kind: graph.Modality,
			text: "We study long-tailed recognition with experts. Experiments on CIFAR-100-LT and ImageNet-LT show gains.",
			want: []string{"image"}},
		{name: "a video benchmark implies video", kind: graph.Modality,
			text: "Our token merging keeps positions. Gains hold on MMBench and VideoMME.",
			want: []string{"video"}},
		{name: "an audio MNIST is no image", kind: graph.Modality,
			text:    "We localise features on the Audio-MNIST domain.",
			wantNot: []string{"image"}},
		{name: "prompts are text", kind: graph.Modality,
			text: "We fine-tune open-source models on responses to prompts from adjacent domains.",
			want: []string{"text"}},
		{name: "a point prompt is no text", kind: graph.Modality,
			text:    "With a single prompt, our model segments parts of 3D objects; visual prompt tuning keeps it small.",
			wantNot: []string{"text"}},
		{name: "code execution", kind: graph.Modality,
			text: "Agents refine heuristics from feedback via code execution.",
			want: []string{"code"}},
	})
}

// A list with one dataset the vocabulary knows is a list of datasets; a
// name that acts, is compared with, or is listed beside a technique is a
// system, and a word of a longer name is none.
func TestClassDatasetLists(t *testing.T) {
	runClass(t, []classCase{
		{name: "any dataset's year after an apostrophe", kind: graph.Dataset,
			text: "We translate. Results on IWSLT'14 German-English improve.",
			want: []string{"IWSLT14 De-En"}},
		{name: "a new name before a known one and the head", kind: graph.Dataset,
			text: "We tag names. Experiments on the FooNER-7 and CoNLL-2003 datasets show results.",
			want: []string{"FooNER-7", "CoNLL-2003"}},
		{name: "a year written with an apostrophe", kind: graph.Dataset,
			text: "We translate. On the English to French task of the WMT'14 dataset we gain.",
			want: []string{"WMT14"}},
		{name: "an ordinary word in lower case is no dataset", kind: graph.Dataset,
			text:    "We forecast long sequences, such as electricity consumption planning.",
			wantNot: []string{"Electricity"}},
		{name: "names beside a known benchmark", kind: graph.Dataset,
			text: "We study chart reasoning. Gains hold on benchmarks, including InfographicVQA, ChartVista, PlotQAPro, and HR-Bench 4K.",
			want: []string{"ChartVista", "PlotQAPro"}},
		{name: "a system the paper builds on and surpasses", kind: graph.Dataset,
			text:    "Built upon TrackPTv2, we present TrackPTv3. It fixes the drift problem in TrackPTv2 and surpasses TrackPTv2 by a large margin.",
			wantNot: []string{"TrackPTv2"}},
		{name: "a name beside a known technique in a list", kind: graph.Technique,
			text: "We study tracking. Gains hold across architectures and datasets including TrackerA1, FairTrk, ByteTrack, and SportsMOT.",
			want: []string{"TrackerA1", "FairTrk"}},
		{name: "an acronym's long form is no dataset", kind: graph.Dataset,
			text:    "Networks are overconfident on Out-of-Distribution (OoD) inputs.",
			wantNot: []string{"Out-of-Distribution"}},
		{name: "a capitalised head inside a name", kind: graph.Dataset,
			text:    "We dismantle the black box with a Corpus Interaction Engine for agents.",
			wantNot: []string{"Interaction"}},
		{name: "a word of a long form before its head", kind: graph.Dataset,
			text:    "We introduce the Big Macaque Motion and Animation Dataset (BigMQ), a large-scale dataset.",
			wantNot: []string{"Animation"}},
		{name: "a name after a conjunction before its head", kind: graph.Dataset,
			text: "Experiments on the DanceClips and Fashion benchmarks show gains.",
			want: []string{"Fashion"}},
		{name: "an appositive that ended before the head", kind: graph.Dataset,
			text:    "We build ScoreNet, an efficient model. With an ensemble of ScoreNet, our largest variant surpasses GPT-5 in the benchmark.",
			wantNot: []string{"ScoreNet"}},
		{name: "a dataset called by its name", kind: graph.Dataset,
			text: "We curated a dataset comprising 61K sets of videos for our new task, called VidMix.",
			want: []string{"VidMix"}},
		{name: "a method called by its name", kind: graph.Dataset,
			text:    "Evaluated on benchmarks, we propose a framework called VidMixer.",
			wantNot: []string{"VidMixer"}},
		{name: "a dataset that improves a model", kind: graph.Dataset,
			text: "We construct BioTraits, a dataset of trait annotations. Fine-tuning on it, BioTraits improves zero-shot accuracy.",
			want: []string{"BioTraits"}},
		{name: "a dataset named by ordinary words, as written", kind: graph.Dataset,
			text: "Open-domain QA on Natural Questions improves. This raises natural questions about retrieval.",
			want: []string{"NQ"}},
		{name: "ordinary words in lower case are no dataset", kind: graph.Dataset,
			text:    "Our bound raises natural questions about step sizes.",
			wantNot: []string{"NQ"}},
		{name: "an English word beside a known dataset", kind: graph.Dataset,
			text:    "We study segmentation on ImageNet and Blender scenes.",
			wantNot: []string{"Blender"}},
	})
}

// A title that calls the paper's name a benchmark makes it a dataset.
func TestClassTitleBenchmark(t *testing.T) {
	runClass(t, []classCase{
		{name: "an agentic benchmark", kind: graph.Dataset,
			title: "HeuriLab: An Agentic Benchmark for LLM-Crafted Heuristics", text: "We introduce HeuriLab, a framework for evaluating heuristics.",
			want: []string{"HeuriLab"}},
		{name: "a dataset for", kind: graph.Dataset,
			title: "VidShift: A Dataset for Video Domain Generalization", text: "Videos shift across domains. VidShift spans 11 domains.",
			want: []string{"VidShift"}},
		{name: "benchmark as a modifier", kind: graph.Dataset,
			title: "CAGEX: A Framework for Culturally Adaptive Benchmark Generation", text: "We introduce CAGEX, a framework.",
			wantNot: []string{"CAGEX"}},
	})
}

// What results are compared with is a prior system, not a dataset.
func TestClassComparedSystems(t *testing.T) {
	runClass(t, []classCase{
		{name: "than", kind: graph.Technique,
			text: "We propose FastEdit for image editing. It is 2x faster than the similarly sized PixEdit3.",
			want: []string{"PixEdit3"}},
		{name: "outperforms", kind: graph.Technique,
			text: "We propose RoadNet for planning. RoadNet outperforms DriveX-2 by 3 points.",
			want: []string{"DriveX-2"}},
		{name: "built upon", kind: graph.Technique,
			text: "Built upon TrackPTv2, we present TrackPTv3 for point tracking.",
			want: []string{"TrackPTv2"}, wantNot: []string{"TrackPTv3"}},
		{name: "a vocabulary dataset compared as a model", kind: graph.Technique,
			text: "We propose FastEdit for image editing. It is 2x faster than UltraEdit.",
			want: []string{"UltraEdit"}},
		{name: "each system on its dataset", kind: graph.Dataset,
			text: "Our video model surpasses VidGen-2 on GenEval, and OpenClipPlan on VBench-T2V.",
			want: []string{"GenEval", "VBench-T2V"}, wantNot: []string{"OpenClipPlan", "VidGen-2"}},
		{name: "a benchmark compared with a benchmark", kind: graph.Dataset,
			text: "Models score lower on RewardEval compared to RewardBench, a widely-used benchmark.",
			want: []string{"RewardBench"}},
		{name: "built on a benchmark", kind: graph.Dataset,
			text: "Built on OSWorld, our benchmark adds 90 tasks.",
			want: []string{"OSWorld"}},
		{name: "a metric on a dataset", kind: graph.Technique,
			text:    "We study tracking. Our loss gains 9.7% MOTA on SportsMOT.",
			wantNot: []string{"MOTA"}},
		{name: "a name that modifies a noun", kind: graph.Technique,
			text:    "We study LLM serving. It needs less memory than KV cache compression.",
			wantNot: []string{"KV"}},
	})
}

// Generic techniques in their ordinary-word uses, and heads that stand
// for the longer name the text gave.
func TestClassGenericWords(t *testing.T) {
	runClass(t, []classCase{
		{name: "the mechanism", kind: graph.Technique,
			text: "We study video generation. We align attention in specific layers with instance masks.",
			want: []string{"attention"}},
		{name: "the attention a problem draws", kind: graph.Technique,
			text:    "Video generation has attracted increasing attention. Little attention has been paid to its privacy.",
			wantNot: []string{"attention"}},
		{name: "a head standing for the compound", kind: graph.Technique,
			title: "Dataset Distillation as Optimal Quantization", text: "Dataset distillation finds a small synthetic set. We solve the distillation problem in closed form.",
			wantNot: []string{"knowledge distillation"}},
		{name: "distillation itself", kind: graph.Technique,
			text: "We study mathematical reasoning. Long chain-of-thought traces are transferred to small models by distillation.",
			want: []string{"knowledge distillation"}},
		{name: "a regularizer", kind: graph.Technique,
			text: "We study adversarial training of LLMs. We add a regularization term on the embedding matrix.",
			want: []string{"regularization"}},
	})
}

// The standard terms of each area that a textbook or survey lists, in
// the field's own phrasing: theory, optimisation, statistics, RL, graph
// learning, signal processing and science papers name them as their tools.
func TestClassFieldTerms(t *testing.T) {
	runClass(t, []classCase{
		{name: "older papers' names of techniques", kind: graph.Technique,
			text: "We extend the sequence-to-sequence attentional model. A tagger uses character-based word representations and a transition-based approach, trained off-policy updates aside, on a weighted variational bound.",
			want: []string{"attention", "character embedding", "transition-based parsing", "evidence lower bound"}},
		{name: "optimisation", kind: graph.Technique,
			text: "We analyse Gauss-Newton and conjugate gradient methods under the Polyak-Lojasiewicz condition, with hypergradients from implicit differentiation.",
			want: []string{"Gauss-Newton method", "conjugate gradient method", "Polyak-Łojasiewicz condition", "hypergradient", "implicit differentiation"}},
		{name: "statistics", kind: graph.Technique,
			text: "Our test uses the Hilbert-Schmidt independence criterion and controls the false discovery rate with e-values; intervals come from quantile regression.",
			want: []string{"Hilbert-Schmidt independence criterion", "testing by betting", "quantile regression"}},
		{name: "probabilistic modelling", kind: graph.Technique,
			text: "We model arrivals with Hawkes processes and compute the partition function of a Markov random field with quasi-Monte Carlo.",
			want: []string{"Hawkes process", "partition function", "Markov random field", "quasi-Monte Carlo"}},
		{name: "reinforcement learning", kind: graph.Technique,
			text: "The critic is trained with n-step returns and Bellman backups against a target network, with an entropy bonus.",
			want: []string{"n-step returns", "Bellman update", "target network", "entropy regularization"}},
		{name: "game theory", kind: graph.Technique,
			text: "Regret minimization in Stackelberg games converges to coarse correlated equilibria.",
			want: []string{"regret minimization", "Stackelberg game", "coarse correlated equilibrium"}},
		{name: "language models", kind: graph.Technique,
			text: "A draft model proposes tokens; the verifier uses continuous chain-of-thought under a causal mask.",
			want: []string{"draft model", "latent reasoning", "attention mask"}},
		{name: "science", kind: graph.Technique,
			text: "We build spiking networks of leaky integrate-and-fire neurons trained with spike-timing-dependent plasticity, and tensor networks for the quantum state.",
			want: []string{"leaky integrate-and-fire", "spike-timing-dependent plasticity", "tensor network"}},
		{name: "graphics", kind: graph.Technique,
			text: "Meshes are voxelized into an octree and rendered by rasterization or path tracing with physically based rendering.",
			want: []string{"octree", "rasterization", "path tracing", "physically based rendering"}},
		{name: "interpretability and unlearning", kind: graph.Technique,
			text: "We locate the circuit with attribution patching and unlearn it by gradient ascent.",
			want: []string{"attribution patching", "gradient ascent"}},
		{name: "tracking baselines", kind: graph.Technique,
			text: "We plug the loss into Trackformer, MOTR and FairMOT.",
			want: []string{"Trackformer", "MOTR", "FairMOT"}},
		{name: "a family and its specific method", kind: graph.Technique,
			text: "Dynamic loss weighting balances the objectives; we compare it with uncertainty weighting.",
			want: []string{"loss weighting", "uncertainty weighting"}},
		{name: "privacy", kind: graph.Technique,
			text: "We add noise with the Gaussian mechanism and track the budget with privacy accounting.",
			want: []string{"Gaussian mechanism", "privacy accounting"}},
		{name: "a problem named like its algorithm", kind: graph.Technique,
			text:    "We study incremental bipartite matching in metric spaces.",
			wantNot: []string{"Hungarian matching"}},
	})
}

// A named version of a model family is its own entity, and a distinct
// method is not an alias of a neighbouring one.
func TestClassNamedVersions(t *testing.T) {
	runClass(t, []classCase{
		{name: "a version after a hyphen", kind: graph.Technique,
			text: "We evaluate Janus-Pro and Kimi-K2 on the benchmark.",
			want: []string{"Janus-Pro", "Kimi K2"}, wantNot: []string{"Janus", "Kimi"}},
		{name: "an o-series model after a family's name", kind: graph.Technique,
			text:    "Even GPT-o4-mini-high fails the hardest problems.",
			wantNot: []string{"GPT"}},
		{name: "a model size of a family", kind: graph.Technique,
			text: "We compare Claude-Opus-4 with Claude 4-Sonnet.",
			want: []string{"Claude Opus 4", "Claude Sonnet 4"}},
		{name: "approximate nearest neighbour search is not inner product search", kind: graph.Technique,
			text: "Documents are found by approximate nearest neighbor search over a proximity graph.",
			want: []string{"approximate nearest neighbor search", "proximity graph"}, wantNot: []string{"maximum inner product search"}},
		{name: "an update is not the equation", kind: graph.Technique,
			text: "Target networks delay the propagation of Bellman updates.",
			want: []string{"Bellman update", "target network"}, wantNot: []string{"Bellman equation"}},
	})
}

// A generic model family named by its generic name, and a paradigm
// written as its verb or gerund.
func TestClassGenericFamilies(t *testing.T) {
	runClass(t, []classCase{
		{name: "neural networks", kind: graph.Technique,
			text: "We prove that two-layer neural networks learn the target.",
			want: []string{"neural network"}},
		{name: "a longer family wins", kind: graph.Technique,
			text:    "We train spiking neural networks.",
			want:    []string{"spiking neural network"},
			wantNot: []string{"neural network"}},
		{name: "meta-training", kind: graph.Technique,
			text: "Prior work scaled meta-training to thousands of accelerators.",
			want: []string{"meta-learning"}},
		{name: "a model family's gerund", kind: graph.Technique,
			text: "We augment data by energy-based modeling and latent variable modelling.",
			want: []string{"energy-based model", "latent variable model"}},
		{name: "a gerund that is a task of its own", kind: graph.Technique,
			text:    "We study language modeling.",
			wantNot: []string{"language model"}},
		{name: "meta-train as a verb", kind: graph.Technique,
			text: "We meta-train a general-purpose optimizer.",
			want: []string{"meta-learning"}},
	})
}

// Theories and decision rules that analyses use as their tools, and the
// components of uncertainty and imbalance handling.
func TestClassTheoriesAsTools(t *testing.T) {
	runClass(t, []classCase{
		{name: "theories", kind: graph.Technique,
			text: "We give a control-theoretic account of training and bound it with information theory and topological data analysis.",
			want: []string{"control theory", "information theory", "topological data analysis"}},
		{name: "uncertainty", kind: graph.Technique,
			text: "The ensemble separates epistemic uncertainty from aleatoric uncertainty.",
			want: []string{"epistemic uncertainty", "aleatoric uncertainty"}},
		{name: "imbalance", kind: graph.Technique,
			text: "We compare class reweighting with logit adjustment.",
			want: []string{"class reweighting", "logit adjustment"}},
		{name: "a rate-distortion trade-off is no theory", kind: graph.Technique,
			text:    "Our codec improves rate-distortion performance.",
			wantNot: []string{"rate-distortion theory"}},
	})
}

// Class: the fields an abstract says its problem matters for are its
// backdrop, not its task.
func TestClassBackdrop(t *testing.T) {
	runClass(t, []classCase{
		{name: "the fields a family of methods succeeded on", kind: graph.Task,
			title: "Neural Collaborative Filtering",
			text:  "In recent years, deep neural networks have yielded immense success on speech recognition, computer vision and natural language processing. We study recommendation from implicit feedback.",
			want:  []string{"recommendation"}, wantNot: []string{"automatic speech recognition"}},
		{name: "a task that modifies a part of the data", kind: graph.Task,
			text: "We study instruction tuning of vision-language models. We release a corpus of 2 million QA pairs filtered for quality.",
			want: []string{"instruction tuning"}, wantNot: []string{"question answering"}},
		{name: "a task that modifies a part of the method", kind: graph.Task,
			text:    "We study exploration in offline reinforcement learning. Our critic adapts the planning horizon to the data.",
			wantNot: []string{"planning"}},
		{name: "a part modifier is kept where it is the only task", kind: graph.Task,
			text: "Models trained with our router reach a lower language modeling loss.",
			want: []string{"language modeling"}},
		{name: "applications such as", kind: graph.Task,
			text:    "Calibrated confidence is needed in safety-critical applications such as medical diagnosis and autonomous driving. We study the calibration of classifiers trained with label smoothing.",
			wantNot: []string{"autonomous driving"}},
		{name: "critical for", kind: graph.Task,
			text: "Tactile sensing is crucial for embodied intelligence. We introduce a codec for tactile signals and evaluate it on robotic grasping.",
			want: []string{"robotic grasping"}, wantNot: []string{"embodied AI"}},
		{name: "plays a role in", kind: graph.Task,
			text: "Open-vocabulary object detection plays a critical role in autonomous driving. We propose a decoupled detector.",
			want: []string{"open-vocabulary object detection"}, wantNot: []string{"autonomous driving"}},
		{name: "domains ranging from", kind: graph.Task,
			text: "Graph generation matters in fields ranging from drug discovery to circuit design. We propose a flow matching model for graph generation.",
			want: []string{"graph generation"}, wantNot: []string{"drug discovery"}},
		{name: "named again outside it", kind: graph.Task,
			text: "Perception plays a key role in autonomous driving. We propose a planner for autonomous driving and test it in closed loop.",
			want: []string{"autonomous driving"}},
		{name: "a gerund says what the subject does", kind: graph.Task,
			text: "Reward models are crucial for aligning large language models with human values. We propose an ordinal reward model.",
			want: []string{"LLM alignment"}},
		{name: "the backdrop is the last resort", kind: graph.Task,
			text: "Strong convexity plays a key role in convex optimization. We define strongly convex sets on manifolds.",
			want: []string{"convex optimization"}},
	})
}

// Class: a field's one-word name written as a property the method has
// or lacks is a goal, not the paper's task.
func TestClassGoalWords(t *testing.T) {
	runClass(t, []classCase{
		{name: "a property of the method", kind: graph.Task,
			text: "Speech emotion recognition from text is hard. We propose a prosody prompt for speech emotion recognition that offers both accuracy and interpretability.",
			want: []string{"speech emotion recognition"}, wantNot: []string{"model interpretability"}},
		{name: "in the opening sentence", kind: graph.Task,
			text: "Interpretability remains a central aim for deep networks. We trace circuits in attention heads and evaluate on image classification.",
			want: []string{"model interpretability"}},
		{name: "the field's own noun", kind: graph.Task,
			text: "Sparse autoencoders are trained on activations. We show that interpretability metrics do not separate trained from random models in image classification.",
			want: []string{"model interpretability"}},
		{name: "the paper's only task", kind: graph.Task,
			text: "Vision transformers compute in blocks. Our analysis offers a new lens for interpretability.",
			want: []string{"model interpretability"}},
	})
}

// Class: the heads the task grammar did not know, which every field
// writes its problems with: "model selection", "audio comprehension",
// "vision token reduction".
func TestClassTaskHeads(t *testing.T) {
	runClass(t, []classCase{
		{name: "selection", kind: graph.Task,
			title: "Automated Pretrained Model Selection for Vision Language Models", text: "Model selection picks the best encoder for a task.",
			want: []string{"model selection"}},
		{name: "comprehension", kind: graph.Task,
			title: "Towards Advanced Audio Comprehension via Interleaved Reasoning", text: "We train audio language models to reason.",
			want: []string{"audio comprehension"}},
		{name: "reduction", kind: graph.Task,
			title: "Vision Token Reduction in MLLMs via Late Injection", text: "We drop redundant visual tokens.",
			want: []string{"vision token reduction"}},
		{name: "a verb is no modifier", kind: graph.Task,
			text:    "We introduce classifiers that deliver production-grade jailbreak robustness at low cost.",
			wantNot: []string{"deliver production-grade jailbreak robustness"}},
	})
}

// Field-standard techniques of areas the vocabulary covered thinly:
// optimisers, statistics, mixture and flow models, efficient inference,
// sequence architectures, robot learning and interpretability.
func TestClassBreadth(t *testing.T) {
	runClass(t, []classCase{
		{name: "optimisers", kind: graph.Technique,
			text: "We train with Lion, SOAP and momentum SGD instead of Adam.",
			want: []string{"Lion", "SOAP", "SGD with momentum"}},
		{name: "statistics", kind: graph.Technique,
			text: "The selection rule gives false discovery rate control, and the bound uses PAC-learning and mutual information (MI) estimation.",
			want: []string{"false discovery rate control", "PAC learning", "mutual information estimation"}},
		{name: "mixture and flow models", kind: graph.Technique,
			text: "We fit mixtures of Gaussians and train a discrete flow matching model.",
			want: []string{"mixture model", "discrete flow matching"}},
		{name: "efficient inference", kind: graph.Technique,
			text: "Our LLM server combines KV cache compression, token eviction and extremely low-bit quantization.",
			want: []string{"KV cache compression", "KV cache eviction", "low-bit quantization"}},
		{name: "sequence architectures", kind: graph.Technique,
			text: "We compare linear transformers with linear RNNs and causal attention.",
			want: []string{"linear transformer", "linear recurrent neural network", "causal attention"}},
		{name: "robot learning", kind: graph.Technique,
			text: "A flow policy with action chunking learns from demonstrations.",
			want: []string{"flow matching policy", "action chunking"}},
		{name: "interpretability", kind: graph.Technique,
			text: "Feature attribution methods test the linear representation hypothesis.",
			want: []string{"feature attribution", "linear representation hypothesis"}},
		{name: "samplers, solvers and conformal methods", kind: graph.Technique,
			text: "We integrate underdamped Langevin dynamics with the Euler-Maruyama scheme, run simulation-based inference with NPE and calibrate by conformal risk control.",
			want: []string{"underdamped Langevin dynamics", "Euler-Maruyama method", "simulation-based inference", "neural posterior estimation", "conformal risk control"}},
		{name: "graph encodings", kind: graph.Technique,
			text: "Our graph foundation model adds random walk structural encodings (RWSE) to a subgraph GNN.",
			want: []string{"graph foundation model", "random walk positional encoding", "subgraph GNN"}},
		{name: "reasoning recipes", kind: graph.Technique,
			text: "The agent is trained with rule-based rewards after task decomposition, and decodes with Jacobi decoding.",
			want: []string{"rule-based reward", "task decomposition", "Jacobi decoding"}},
		{name: "multiple instance learning as a task", kind: graph.Task,
			text: "Multiple instance learning (MIL) classifies gigapixel slides from bags of patches.",
			want: []string{"multiple instance learning"}},
		{name: "an opinion dynamics model is no learned one", kind: graph.Technique,
			text:    "We minimise polarization in the opinion dynamics model.",
			wantNot: []string{"learned dynamics model"}},
	})
}
