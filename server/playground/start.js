// Starts GraphiQL on the page served at /, once its deferred scripts have
// run. The example query is in the page (#example) so that it fits the
// graph being served; ?query= in the URL replaces it, so links can share
// a query.
"use strict";
(function () {
  const root = document.getElementById("graphiql");
  if (typeof GraphiQL === "undefined" || typeof React === "undefined" || typeof ReactDOM === "undefined") {
    root.firstElementChild.textContent = "GraphiQL's scripts did not load from /playground/: the API is still at /query.";
    return;
  }
  const example = JSON.parse(document.getElementById("example").textContent);
  const query = new URLSearchParams(location.search).get("query");
  const fetcher = GraphiQL.createFetcher({ url: location.origin + "/query" });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      query: query || example,
      defaultQuery: example,
      isHeadersEditorEnabled: true,
    }),
  );
})();
