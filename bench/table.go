package bench

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
)

// WriteTable prints r for people.
func (r *Result) WriteTable(w io.Writer) error {
	mb := func(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
	m := r.Machine
	fmt.Fprintf(w, "papergraph bench: %d papers (%s); %s, %d CPUs, %.0f GiB, %s\n\n",
		r.Papers, r.Corpus, m.CPU, m.CPUs, float64(m.MemBytes)/(1<<30), m.Go)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "corpus\t%s, %d bytes per abstract on average\n", mb(r.CorpusBytes), r.CorpusBytes/int64(max(r.Papers, 1)))
	fmt.Fprintf(tw, "extract\t%.2f MB/s, %.0f papers/s (%d workers); one core: %.2f MB/s, %.0f papers/s\n",
		r.ExtractMBs, r.ExtractPapersS, r.ExtractWorkers, r.ExtractSingleMBs, r.ExtractSinglePapersS)
	fmt.Fprintf(tw, "ingest\t%s: %.0f papers/s end to end (%.1f s); the store's part alone %.0f papers/s\n",
		r.IngestMode, r.IngestPapersS, r.IngestSeconds, r.PutPapersS)
	fmt.Fprintf(tw, "store\t%d papers, %d entities, %d edges, %s on disk\n", r.StoredPapers, r.Entities, r.Edges, mb(r.DBBytes))
	fmt.Fprintf(tw, "peak RSS\t%s; after the queries %s; during ingest %s: anonymous at most %s (live Go heap %s), mapped files at most %s\n",
		mb(r.PeakRSSBytes), mb(r.QueriesPeakRSSBytes), mb(r.IngestPeakRSSBytes), mb(r.IngestPeakAnonBytes), mb(r.IngestPeakHeapLiveBytes), mb(r.IngestPeakFileBytes))
	tw.Flush()

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query\tn\tp50 ms\tp95 ms\tp99 ms\tmax ms\t")
	for _, name := range slices.Sorted(maps.Keys(r.Queries)) {
		l := r.Queries[name]
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n", name, l.N, l.P50/1000, l.P95/1000, l.P99/1000, l.Max/1000)
	}
	tw.Flush()
	fmt.Fprintf(w, "path found for %.0f%% of the random pairs within 4 hops\n", 100*r.PathFound)
	fmt.Fprintf(w, "papersSharing: %d of the first %d answers differ from brute force\n", r.SharingMismatches, r.SharingChecked)
	if r.ExportFormat != "" { // --no-export
		fmt.Fprintf(w, "export of the whole graph as %s: %.0f edges/s (%.2f s, %s)\n", r.ExportFormat, r.ExportEdgesS, r.ExportSeconds, mb(r.ExportBytes))
	}
	if h := r.HTTP; h != nil {
		fmt.Fprintf(w, "\nhttp %s: %d clients for %.1f s: %d requests, %.0f req/s, p50 %.2f ms, p99 %.2f ms, server CPU %.3f ms per request, %d errors (response cache %d)\n",
			h.Query, h.Concurrency, h.Seconds, h.Requests, h.RPS, h.P50ms, h.P99ms, h.ServerCPUms, h.Errors, h.ResponseCache)
	}
	return nil
}
