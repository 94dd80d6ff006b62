package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// describedQuery asks for every description a client tool reads.
const describedQuery = `{
  __schema {
    description
    types {
      name kind description
      fields(includeDeprecated: true) { name description args { name description } }
      inputFields { name description }
      enumValues(includeDeprecated: true) { name description }
    }
  }
}`

// builtinScalars are described by the GraphQL spec, not by the schema.
var builtinScalars = map[string]bool{"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true}

// TestSchemaDescribed checks, over introspection as a client sees it, that
// every type, field, argument, input field and enum value of the schema
// has a description: schema linters and generated client docs read them.
func TestSchemaDescribed(t *testing.T) {
	ts := newTestServer(t, 0, Options{})
	r := ts.post(t, describedQuery, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("introspection: %v", r.Errors)
	}
	type named struct{ Name, Description string }
	var data struct {
		Schema struct {
			Description string
			Types       []struct {
				Name, Kind, Description string
				Fields                  []struct {
					Name, Description string
					Args              []named
				}
				InputFields []named
				EnumValues  []named
			}
		} `json:"__schema"`
	}
	if err := json.Unmarshal(r.Data, &data); err != nil {
		t.Fatal(err)
	}
	var missing []string
	need := func(what, desc string) {
		if strings.TrimSpace(desc) == "" {
			missing = append(missing, what)
		}
	}
	need("schema", data.Schema.Description)
	types := 0
	for _, ty := range data.Schema.Types {
		if strings.HasPrefix(ty.Name, "__") || builtinScalars[ty.Name] {
			continue
		}
		types++
		need("type "+ty.Name, ty.Description)
		for _, f := range ty.Fields {
			need("field "+ty.Name+"."+f.Name, f.Description)
			for _, a := range f.Args {
				need("argument "+ty.Name+"."+f.Name+"("+a.Name+")", a.Description)
			}
		}
		for _, f := range ty.InputFields {
			need("input field "+ty.Name+"."+f.Name, f.Description)
		}
		for _, v := range ty.EnumValues {
			need("enum value "+ty.Name+"."+v.Name, v.Description)
		}
	}
	if types < 20 {
		t.Errorf("introspection listed %d schema types; want the whole schema", types)
	}
	for _, m := range missing {
		t.Errorf("%s has no description", m)
	}
}
