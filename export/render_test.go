package export

import (
	"bytes"
	"context"
	"io"
	"testing"
)

func TestRender(t *testing.T) {
	var b bytes.Buffer
	if err := Render(context.Background(), &b, []byte(`digraph { "a" -> "b" }`), PNG); err != nil {
		t.Fatalf("Render png: %v", err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("Render png wrote %q...; want a PNG", b.Bytes()[:min(8, b.Len())])
	}
	if err := Render(context.Background(), io.Discard, []byte(`digraph { "a" -> }`), SVG); err == nil {
		t.Error("Render of broken DOT succeeded; want an error")
	}
	if err := Render(context.Background(), io.Discard, []byte(`digraph {}`), GraphML); err == nil {
		t.Error("Render as graphml succeeded; want an error")
	}
}
