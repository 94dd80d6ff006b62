// Package bench measures papergraph in one run, on a deterministic corpus
// (package corpus) or a real one: extraction throughput on a sample,
// ingest through the ingest pipeline that the ingest command runs, with
// the database's size and the process's peak memory, latency percentiles
// of the store's traversals in-process, and the real HTTP server under a
// closed-loop load of concurrent clients. The bench command is its flags.
//
//	res, err := bench.Run(ctx, x, bench.Config{Papers: 100000, Queries: 2000, HTTP: true, Concurrency: 64, Duration: 30 * time.Second})
//	res.WriteTable(os.Stdout) // or json.NewEncoder(w).Encode(res)
package bench
