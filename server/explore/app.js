// The papergraph explorer: a reference frontend of the GraphQL API in
// plain ES modules, no framework and no build step. Pages are routes of
// the URL's fragment, so every page is a link:
//
//   #/                 search as you type
//   #/search/TEXT      the same, with TEXT typed
//   #/paper/ID         a paper, its evidence and the papers sharing its entities
//   #/entity/ID        an entity, its taxonomy, papers and co-occurring entities
//   #/graph/ID         the neighbourhood picture (the server's SVG)

import { gql, exportURL } from "./api.js";
import { SEARCH, PAPER, ENTITY, NODE } from "./queries.js";

const app = document.getElementById("app");

// KINDS are the schema's EntityKind values in its order, with the words
// the pages use for them.
const KINDS = [
  ["TASK", "task", "tasks"],
  ["MODALITY", "modality", "modalities"],
  ["DATASET", "dataset", "datasets"],
  ["TECHNIQUE", "technique", "techniques"],
];
const kindWord = (k) => (KINDS.find((x) => x[0] === k) || [k, k.toLowerCase()])[1];

// h builds an element: h("a", {href: "#/"}, "text", child...). Text is
// always set as text, never parsed as HTML.
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

const paperHref = (id) => `#/paper/${encodeURIComponent(id)}`;
const entityHref = (id) => `#/entity/${encodeURIComponent(id)}`;
const graphHref = (id) => `#/graph/${encodeURIComponent(id)}`;

function entityLink(e) {
  return h("a", { href: entityHref(e.id), class: `chip k-${kindWord(e.kind)}`, "data-id": e.id }, e.name);
}

function paperLink(p) {
  return h("a", { href: paperHref(p.id), class: "paper-link", "data-id": p.id }, p.label);
}

// used shows the query a page ran, for developers reading the page.
function used(query, variables) {
  return h("details", { class: "used" }, h("summary", {}, "GraphQL used"),
    h("pre", {}, query), h("pre", {}, "variables: " + JSON.stringify(variables)));
}

function show(...children) {
  app.replaceChildren(...children);
}

function failed(err) {
  show(h("p", { class: "error" }, "Error: " + err.message));
}

// --- search -------------------------------------------------------------

let searchSeq = 0;

function searchPage(text) {
  const input = h("input", {
    type: "search", id: "q", placeholder: "Search entities and papers: diffusion, OSWorld, LoRA…",
    autocomplete: "off", autofocus: true, value: text,
  });
  const results = h("div", { id: "results" });
  let timer;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    // A short pause, so that fast typing asks once.
    timer = setTimeout(() => {
      history.replaceState(null, "", input.value ? `#/search/${encodeURIComponent(input.value)}` : "#/");
      runSearch(input.value, results);
    }, 120);
  });
  show(h("h1", {}, "Explore the graph"), input, results);
  input.focus();
  if (text) runSearch(text, results);
}

async function runSearch(text, results) {
  const seq = ++searchSeq;
  const q = text.trim();
  if (!q) {
    results.replaceChildren();
    return;
  }
  let data;
  try {
    data = await gql(SEARCH, { q });
  } catch (err) {
    results.replaceChildren(h("p", { class: "error" }, err.message));
    return;
  }
  if (seq !== searchSeq) return; // a later search is under way
  const entities = data.entities.edges.map((e) => e.node);
  const papers = data.search.filter((hit) => hit.node.label !== undefined);
  results.replaceChildren(
    h("section", { class: "entities" },
      h("h2", {}, `Entities (${data.entities.totalCount})`),
      entities.length === 0 ? h("p", { class: "muted" }, "No entity name starts with that.") :
        h("ul", {}, entities.map((e) => h("li", {}, entityLink(e), " ",
          h("span", { class: "muted" }, `${kindWord(e.kind)} · ${plural(e.paperCount, "paper")}`))))),
    h("section", { class: "papers" },
      h("h2", {}, `Papers (${papers.length})`),
      papers.length === 0 ? h("p", { class: "muted" }, "No paper text matches.") :
        h("ol", {}, papers.map((hit) => h("li", {}, paperLink(hit.node), " ",
          h("span", { class: "muted" }, [hit.node.year, hit.node.venue].filter(Boolean).join(" · ")))))),
    used(SEARCH, { q }),
  );
}

// --- paper --------------------------------------------------------------

// highlight returns the abstract as nodes, each mention a mark linking to
// its entity, and the number of marks. Mention offsets are UTF-8 byte
// offsets, so the abstract is cut as bytes. Mentions of one span (a
// phrase that is evidence of two entities) share a mark titled with
// both; a mention overlapping an earlier one (a name inside a longer
// phrase, which starts first or is longer) is left out.
function highlight(abstract, mentions, idOf) {
  const bytes = new TextEncoder().encode(abstract);
  const dec = new TextDecoder();
  const spans = [];
  for (const m of [...mentions].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = spans[spans.length - 1];
    if (last && m.start === last.start && m.end === last.end) last.of.push(m);
    else if ((!last || m.start >= last.end) && m.end <= bytes.length) spans.push({ start: m.start, end: m.end, of: [m] });
  }
  const out = [];
  let at = 0;
  for (const sp of spans) {
    out.push(dec.decode(bytes.subarray(at, sp.start)));
    const m = sp.of[0];
    const id = idOf(m.kind, m.entity);
    out.push(h("a", {
      href: id ? entityHref(id) : undefined, class: `mention k-${kindWord(m.kind)}`,
      title: sp.of.map((x) => `${kindWord(x.kind)}: ${x.entity}`).join("; "), "data-entity": m.entity,
    }, dec.decode(bytes.subarray(sp.start, sp.end))));
    at = sp.end;
  }
  out.push(dec.decode(bytes.subarray(at)));
  return [out, spans.length];
}

// SHARING_ORDER is the order of the paper page's "papers sharing its"
// sections: datasets tell most about a paper's neighbours.
const SHARING_ORDER = ["datasets", "techniques", "tasks", "modalities"];

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

async function paperPage(id) {
  const vars = { id };
  const data = await gql(PAPER, vars);
  const p = data.paper;
  if (!p) {
    show(h("p", { class: "error" }, `No paper ${id}.`));
    return;
  }
  const ids = new Map(p.entities.map((e) => [`${e.kind}\u0000${e.name}`, e.id]));
  const byKind = KINDS.map(([k, , word]) => [word, p.entities.filter((e) => e.kind === k)]).filter(([, es]) => es.length > 0);
  const sharing = SHARING_ORDER.map((kinds) => [kinds, data[kinds]]);
  const idOf = (k, name) => ids.get(`${k}\u0000${name}`);
  // A mention's offsets are into the title when inTitle, else into the abstract.
  const [abstract, marks] = highlight(p.abstract, p.mentions.filter((m) => !m.inTitle), idOf);
  const [title, titleMarks] = p.title ? highlight(p.title, p.mentions.filter((m) => m.inTitle), idOf) : [null, 0];
  show(
    h("article", { class: "paper", "data-id": p.id },
      h("h1", { id: "label" }, p.label),
      p.title && (p.title !== p.label || titleMarks > 0) ? h("p", { class: "title", id: "title" }, title) : null,
      h("p", { class: "muted" }, [p.year, p.venue, `${p.source}`].filter(Boolean).join(" · "), " · ",
        h("a", { href: graphHref(p.id) }, "neighbourhood picture"),
        p.url ? [" · ", h("a", { href: p.url, rel: "noreferrer" }, "source")] : null),
      h("h2", {}, "Abstract"),
      h("p", { class: "abstract", id: "abstract" }, abstract),
      h("p", { class: "muted" }, `Highlighted: the evidence of the entities below (${plural(p.mentions.length, "mention")} in ${plural(marks + titleMarks, "place")} of the title and abstract; hover for the entity).`),
      h("h2", {}, "Entities"),
      h("dl", { class: "by-kind" }, byKind.map(([word, es]) => [h("dt", {}, word), h("dd", {}, es.map(entityLink))])),
      h("h2", {}, "Papers sharing its…"),
      sharing.map(([kinds, matches]) => h("section", { class: "sharing", "data-kind": kinds },
        h("h3", {}, kinds),
        matches.length === 0 ? h("p", { class: "muted" }, `No other paper shares its ${kinds}.`) :
          h("ol", {}, matches.map((m) => h("li", {},
            paperLink(m.paper), " ", h("span", { class: "score", title: "Adamic-Adar score" }, m.score.toFixed(2)),
            h("div", { class: "shared" }, "shared: ", m.shared.map(entityLink))))))),
    ),
    used(PAPER, vars),
  );
}

// --- entity -------------------------------------------------------------

async function entityPage(id) {
  const vars = { id };
  const data = await gql(ENTITY, vars);
  const e = data.node;
  if (!e || !e.kind) {
    show(h("p", { class: "error" }, `No entity ${id}.`));
    return;
  }
  const list = h("ol", { id: "papers" });
  const more = h("button", { type: "button", id: "more" }, "More papers");
  let page = e.papers;
  const addPage = () => {
    list.append(...page.edges.map(({ node }) => h("li", {}, paperLink(node), node.year ? h("span", { class: "muted" }, " " + node.year) : null)));
    more.hidden = !page.pageInfo.hasNextPage;
  };
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      page = (await gql(ENTITY, { id, after: page.pageInfo.endCursor })).node.papers;
      addPage();
    } catch (err) {
      more.after(h("p", { class: "error" }, err.message));
    }
    more.disabled = false;
  });
  addPage();
  const names = (es) => (es.length === 0 ? h("span", { class: "muted" }, "none") : es.map((x) => entityLink({ ...x, kind: e.kind })));
  show(
    h("article", { class: `entity k-${kindWord(e.kind)}`, "data-id": e.id },
      h("h1", { id: "name" }, e.name, " ", h("span", { class: `kind chip k-${kindWord(e.kind)}` }, kindWord(e.kind))),
      h("p", { class: "muted" }, `${plural(e.paperCount, "paper")} · `, h("a", { href: graphHref(e.id), id: "picture" }, "neighbourhood picture")),
      h("dl", {},
        h("dt", {}, "aliases"), h("dd", { id: "aliases" }, e.aliases.length ? e.aliases.join(", ") : h("span", { class: "muted" }, "none")),
        h("dt", {}, "broader"), h("dd", { id: "broader" }, names(e.broader)),
        h("dt", {}, "narrower"), h("dd", { id: "narrower" }, names(e.narrower))),
      h("div", { class: "columns" },
        h("section", {}, h("h2", {}, `Papers (${e.papers.totalCount})`), list, more),
        h("section", {}, h("h2", {}, "Appears with"),
          h("ul", { id: "cooccurring" }, data.coOccurring.map((c) => h("li", {}, entityLink(c.entity), " ",
            h("span", { class: "muted" }, plural(c.count, "paper"))))))),
    ),
    used(ENTITY, vars),
  );
}

// --- picture ------------------------------------------------------------

const SVGNS = "http://www.w3.org/2000/svg";

// graphPage shows the server's SVG of the neighbourhood of id and makes
// each node a link to its page: Graphviz titles each node with its id.
async function graphPage(id, hops) {
  const [data, resp] = await Promise.all([gql(NODE, { id }), fetch(exportURL(id, "svg", { hops, cluster: 1, legend: 1 }))]);
  const n = data.node;
  if (!n) {
    show(h("p", { class: "error" }, `No paper or entity ${id}.`));
    return;
  }
  const text = await resp.text();
  if (!resp.ok) {
    show(h("p", { class: "error" }, `/export answered ${resp.status}: ${text}`));
    return;
  }
  const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  for (const g of svg.querySelectorAll("g.node")) {
    const nid = g.querySelector("title")?.textContent ?? "";
    if (nid.startsWith("legend:")) continue;
    const a = document.createElementNS(SVGNS, "a");
    a.setAttribute("href", /^[0-9a-f]{16}$/.test(nid) ? paperHref(nid) : entityHref(nid));
    a.setAttribute("data-id", nid);
    g.replaceWith(a);
    a.append(g);
  }
  const label = n.label ?? n.name;
  const back = n.label !== undefined ? paperHref(id) : entityHref(id);
  show(
    h("h1", {}, "Around ", h("a", { href: back, id: "centre" }, label)),
    h("p", { class: "muted" },
      [1, 2].map((k) => [k === hops ? h("strong", {}, `${k} hop${k > 1 ? "s" : ""}`) : h("a", { href: `${graphHref(id)}/${k}` }, `${k} hop${k > 1 ? "s" : ""}`), " · "]),
      "click a node to open its page · ",
      h("a", { href: exportURL(id, "dot", { hops }) }, "DOT"), " · ",
      h("a", { href: exportURL(id, "graphml", { hops }) }, "GraphML"), " · ",
      h("a", { href: exportURL(id, "json", { hops }) }, "Cytoscape JSON")),
    h("figure", { id: "picture" }, document.importNode(svg, true)),
  );
}

// --- routing ------------------------------------------------------------

async function route() {
  const [, page = "", arg = "", extra = ""] = location.hash.split("/");
  const id = decodeURIComponent(arg);
  window.scrollTo(0, 0);
  try {
    switch (page) {
      case "paper":
        await paperPage(id);
        break;
      case "entity":
        await entityPage(id);
        break;
      case "graph":
        await graphPage(id, Number(extra) || 1);
        break;
      case "search":
        searchPage(id);
        break;
      default:
        searchPage("");
    }
  } catch (err) {
    failed(err);
  }
  document.body.dataset.page = page || "search";
  document.body.dataset.ready = location.hash;
}

window.addEventListener("hashchange", route);
route();
