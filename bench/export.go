package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/papergraph/papergraph/export"
	"github.com/papergraph/papergraph/graph"
)

// exportFormat is the format of the export phase: GraphML, what Gephi,
// networkx and the peers' loaders read, and the largest per edge of the
// streamed formats but Cytoscape's.
const exportFormat = export.GraphML

// exportWhole streams the whole graph as exportFormat through
// export.Write, as `papergraph export --format graphml` does, to a
// counter instead of a file, and records edges per second.
func (b *bench) exportWhole(ctx context.Context, st export.Source) error {
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	var w countWriter
	start := time.Now()
	if err := export.Write(ctx, &w, st, graph.Selection{}, exportFormat, export.Options{}); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	secs := time.Since(start).Seconds()
	b.res.ExportFormat = exportFormat.String()
	b.res.ExportSeconds = roundTo(secs, 3)
	b.res.ExportBytes = w.n
	b.res.ExportEdgesS = roundTo(float64(stats.Edges)/secs, 0)
	b.log.Info("export done", "format", b.res.ExportFormat, "edges", stats.Edges, "seconds", b.res.ExportSeconds, "edges_s", b.res.ExportEdgesS)
	return nil
}

// countWriter counts the bytes written to it and drops them.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }
