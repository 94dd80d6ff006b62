// The explorer's only access to the server: GraphQL over POST /query, as
// any frontend would call it, and the /export/ files. Nothing else of the
// server is assumed.

// gql runs query with variables and returns its data; it throws an Error
// carrying the GraphQL errors' messages and codes when there are any.
export async function gql(query, variables = {}) {
  const resp = await fetch("/query", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/graphql-response+json, application/json" },
    body: JSON.stringify({ query, variables }),
  });
  let body;
  try {
    body = await resp.json();
  } catch {
    throw new Error(`/query answered ${resp.status} without JSON`);
  }
  if (body.errors && body.errors.length > 0) {
    const e = new Error(body.errors.map((x) => `${x.message} (${x.extensions?.code ?? "no code"})`).join("; "));
    e.errors = body.errors;
    throw e;
  }
  return body.data;
}

// exportURL is the URL of the neighbourhood of id as format ("svg", "dot",
// "graphml", "json"), with the /export/ query parameters of params.
export function exportURL(id, format, params = {}) {
  const q = new URLSearchParams(params).toString();
  return `/export/${encodeURIComponent(id)}.${format}${q ? "?" + q : ""}`;
}
