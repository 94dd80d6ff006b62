// The GraphQL queries of the explorer's pages, one per page, each asking
// for exactly what the page shows. They are the API's worked example: the
// pages show them under "GraphQL used".

// Entities whose name or alias starts with the text typed, most papers
// first, and the papers whose text matches it (BM25): two lists, so that
// neither crowds the other out.
export const SEARCH = `query Search($q: String!) {
  entities(search: $q, first: 8) {
    totalCount
    edges { node { id kind name paperCount } }
  }
  search(query: $q, first: 20) {
    score
    node { id ... on Paper { label year venue } }
  }
}`;

// A paper with the evidence for its entities and, for each kind, the
// papers sharing entities of that kind with it (through the taxonomy).
export const PAPER = `query Paper($id: ID!) {
  paper(id: $id) {
    id label title abstract year venue url source
    entities { id kind name }
    mentions { kind entity text start end inTitle }
  }
  datasets: papersSharing(paper: $id, kinds: [DATASET], family: true, first: 5) { ...Match }
  techniques: papersSharing(paper: $id, kinds: [TECHNIQUE], family: true, first: 5) { ...Match }
  tasks: papersSharing(paper: $id, kinds: [TASK], family: true, first: 5) { ...Match }
  modalities: papersSharing(paper: $id, kinds: [MODALITY], family: true, first: 5) { ...Match }
}
fragment Match on PaperMatch {
  score
  paper { id label year }
  shared { id kind name }
}`;

// An entity, its place in the taxonomy, a page of its papers and the
// entities it appears with most.
export const ENTITY = `query Entity($id: ID!, $after: String) {
  node(id: $id) {
    ... on Entity {
      id kind name aliases paperCount
      broader { id name }
      narrower { id name }
      papers(first: 10, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        edges { node { id label year } }
      }
    }
  }
  coOccurring(entity: $id, first: 12) {
    count
    entity { id kind name }
  }
}`;

// The label of the node at the centre of a picture.
export const NODE = `query Node($id: ID!) {
  node(id: $id) {
    id
    ... on Paper { label }
    ... on Entity { name kind }
  }
}`;
