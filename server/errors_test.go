package server

import (
	"os"
	"strings"
	"testing"
)

// TestErrorCodesDocumented checks that the README's table lists every
// extensions.code the server sets, so that clients can rely on it.
func TestErrorCodesDocumented(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skipf("no README beside the package: %v", err)
	}
	codes := []string{
		internalCode, "DEPTH_LIMIT_EXCEEDED", "RESPONSE_TOO_LARGE", "TOO_MANY_ERRORS",
		// gqlgen's own.
		"GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "COMPLEXITY_LIMIT_EXCEEDED", "PERSISTED_QUERY_NOT_FOUND",
	}
	for _, c := range errorCodes {
		codes = append(codes, c.code)
	}
	for _, c := range codes {
		if !strings.Contains(string(readme), "| `"+c+"` |") {
			t.Errorf("README.md's table of error codes lacks %s", c)
		}
	}
}
