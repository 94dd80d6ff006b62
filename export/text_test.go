package export

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"testing"
)

// FuzzEscapers checks that text appendEscaped writes for JSON and XML
// reads back, with encoding/json and a strict encoding/xml, as the cleaned
// text (cleanText), whatever the input.
func FuzzEscapers(f *testing.F) {
	for _, s := range []string{"", "plain", `a "b" \c`, "<a&b>'", "line\nbreak\ttab", "\x00\x1b[31m\x7f", "é\xff\u2028\U0001F600\uFFFE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := cleanText(s)
		js := append(appendEscaped([]byte(`"`), s, jsonEscaper), '"')
		var got string
		if err := json.Unmarshal(js, &got); err != nil || got != want {
			t.Errorf("JSON of %q = %s, reads back %q (%v); want %q", s, js, got, err, want)
		}
		doc := append(appendEscaped([]byte(`<a b="`), s, xmlEscaper), `">`...)
		doc = append(appendEscaped(doc, s, xmlEscaper), "</a>"...)
		var elem struct {
			B    string `xml:"b,attr"`
			Text string `xml:",chardata"`
		}
		dec := xml.NewDecoder(bytes.NewReader(doc))
		dec.Strict = true
		if err := dec.Decode(&elem); err != nil || elem.B != want || elem.Text != want {
			t.Errorf("XML of %q = %s, reads back %q, %q (%v); want %q", s, doc, elem.B, elem.Text, err, want)
		}
	})
}
