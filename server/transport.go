package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// post is gqlgen's POST transport (transport.POST, whose Supports it
// keeps) but for how it writes a successful response. gqlgen's writes
// every response with json.Marshal, which validates and compacts the
// response's data, already JSON written by the marshallers, byte by byte:
// 0.05 ms of a papersSharing request's 0.6 ms of server CPU (profile of
// bench --http at 100k papers, 2 Dec 2026). post writes the data as it
// is, with only the escaping json.Marshal adds (<, >, &, U+2028 and
// U+2029 in strings), so that the bytes are the same; a response with
// errors or extensions still goes through json.Marshal. The status codes
// and content types are gqlgen's (TestPostAsGqlgen).
type post struct{ transport.POST }

var _ graphql.Transport = post{}

// The response types of the GraphQL-over-HTTP draft that gqlgen answers.
const (
	contentJSON            = "application/json"
	contentGraphQLResponse = "application/graphql-response+json"
)

func (post) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	contentType := responseContentType(r.Header.Get("Accept"))
	w.Header().Add("Content-Type", contentType)
	start := graphql.Now()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("could not read request body: %+v", err)}))
		return
	}
	var params graphql.RawParams
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&params); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		writeResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf(
			"json request body could not be decoded: %+v body:%s", err, string(body))}))
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	rc, opErr := exec.CreateOperationContext(ctx, &params)
	if opErr != nil {
		status := http.StatusOK
		if errcode.GetErrorKind(opErr) == errcode.KindProtocol {
			status = http.StatusUnprocessableEntity
			if contentType == contentGraphQLResponse {
				status = http.StatusBadRequest
			}
		}
		w.WriteHeader(status)
		writeResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, rc)
	writeResponse(w, responses(ctx))
}

// responseContentType is the content type gqlgen's POST answers a request
// accepting accept with: JSON unless the client asks for
// application/graphql-response+json first, or accepts neither.
func responseContentType(accept string) string {
	if accept == "" {
		return contentJSON
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", contentJSON:
			return contentJSON
		case contentGraphQLResponse:
			return contentGraphQLResponse
		}
	}
	return contentGraphQLResponse
}

// writeResponse writes resp as json.Marshal would. (gqlgen's executor
// gives every response an Extensions map, empty unless an extension adds
// to it: json.Marshal omits it then.)
func writeResponse(w io.Writer, resp *graphql.Response) {
	if len(resp.Errors) > 0 || resp.Label != "" || resp.Path != nil || resp.HasNext != nil || len(resp.Extensions) > 0 || len(resp.Data) == 0 {
		b, err := json.Marshal(resp)
		if err != nil {
			panic(fmt.Errorf("unable to marshal %s: %w", string(resp.Data), err))
		}
		w.Write(b)
		return
	}
	buf := listBuffers.Get().(*[]byte)
	b := bytes.NewBuffer((*buf)[:0])
	b.WriteString(`{"data":`)
	json.HTMLEscape(b, resp.Data)
	b.WriteByte('}')
	w.Write(b.Bytes())
	if b.Cap() <= maxKeptBuffer {
		*buf = b.Bytes()
		listBuffers.Put(buf)
	}
}
