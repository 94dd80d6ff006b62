package server

import (
	"slices"
	"strings"
	"testing"
)

// TestBadInput posts arguments the server must refuse with a short
// BAD_USER_INPUT, as ingest refuses them in a file.
func TestBadInput(t *testing.T) {
	ts := newTestServer(t, 0, Options{WriteToken: "s3cret", Limits: Limits{MaxBodyBytes: 2 << 20}})
	const add = `mutation($in: [PaperInput!]!) { addPapers(input: $in) { added } }`
	long := strings.Repeat("x", 500<<10)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		want  string // in the message
	}{
		{"empty abstract", add, map[string]any{"in": []map[string]any{{"abstract": "  "}}}, "input[0].abstract is empty"},
		{"NUL in the abstract", add, map[string]any{"in": []map[string]any{{"abstract": "We use Hub.\x00"}}}, "input[0].abstract holds a NUL byte"},
		{"negative minShared", `{ papersSharing(paper: "` + fxID(1) + `", minShared: -5) { score } }`, nil, "minShared = -5"},
		{"long bad id", `query($id: ID!) { paper(id: $id) { id } }`, map[string]any{"id": long}, `"xxxxxxxx`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.post(t, tt.query, tt.vars, "Authorization: Bearer s3cret")
			if !slices.Equal(r.codes(), []string{"BAD_USER_INPUT"}) {
				t.Fatalf("codes %q; want BAD_USER_INPUT (%.300v)", r.codes(), r.Errors)
			}
			msg := r.Errors[0].Message
			if !strings.Contains(msg, tt.want) {
				t.Errorf("message %.200q; want it to say %q", msg, tt.want)
			}
			if len(msg) > maxMessage+len("…") {
				t.Errorf("message of %d bytes; want at most %d", len(msg), maxMessage)
			}
		})
	}
	if r := ts.post(t, `{ stats { papers } }`, nil); len(r.Errors) > 0 || !strings.Contains(string(r.Data), `"papers":8`) {
		t.Errorf("after the refused writes: %s %+v; want the fixture's 8 papers", r.Data, r.Errors)
	}
}
