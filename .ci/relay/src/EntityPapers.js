// A Relay client of the papergraph schema, compiled by relay-compiler in
// CI (.ci/relay.sh) to check that the schema is one Relay accepts: a
// paginated fragment with @connection (which needs Relay's full PageInfo)
// and @refetchable (which needs Node and Query.node).
import { graphql } from "react-relay";

export const entityPapers = graphql`
  fragment EntityPapers_entity on Entity
  @refetchable(queryName: "EntityPapersPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
    name
    paperCount
    papers(first: $count, after: $cursor) @connection(key: "EntityPapers_papers") {
      totalCount
      edges {
        node {
          id
          label
          year
          datasets {
            id
            name
          }
        }
      }
    }
  }
`;

export const paperPage = graphql`
  query EntityPapersPageQuery($kind: EntityKind!, $name: String!) {
    entity(kind: $kind, name: $name) {
      id
      ...EntityPapers_entity
    }
    neighborhood(id: "dataset:osworld") {
      edges {
        from
        to
        kind
      }
    }
  }
`;

export const allPapers = graphql`
  fragment EntityPapers_query on Query
  @refetchable(queryName: "AllPapersPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 20 }, cursor: { type: "String" }) {
    papers(first: $count, after: $cursor) @connection(key: "AllPapers_papers") {
      edges {
        node {
          id
          label
        }
      }
    }
  }
`;
