// Package metrics exposes a run's progress as Prometheus metrics
// (client_golang). It observes the pipeline; it never drives it.
package metrics

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/open-markdown/ccrawl/pipeline"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics implements pipeline.Observer.
type Metrics struct {
	reg      *prometheus.Registry
	shards   *prometheus.CounterVec
	rows     prometheus.Counter
	bytes    *prometheus.CounterVec
	skipped  *prometheus.CounterVec
	phase    *prometheus.HistogramVec
	inflight prometheus.Gauge
	rate     prometheus.Gauge
	freeDisk prometheus.Gauge
	rss      prometheus.Gauge
	srv      *http.Server
}

// New builds the metric set for one run of pipeline (e.g. "markdown.export").
func New(pipelineName string) *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	labels := prometheus.Labels{"pipeline": pipelineName}
	f := func(name, help string) prometheus.Opts {
		return prometheus.Opts{Namespace: "ccrawl", Name: name, Help: help, ConstLabels: labels}
	}
	m := &Metrics{
		reg:      reg,
		shards:   prometheus.NewCounterVec(prometheus.CounterOpts(f("shards_total", "Shards finished, by status (ok, failed, skipped).")), []string{"status"}),
		rows:     prometheus.NewCounter(prometheus.CounterOpts(f("rows_total", "Rows written to Parquet."))),
		bytes:    prometheus.NewCounterVec(prometheus.CounterOpts(f("bytes_total", "Bytes by kind: warc (input), html, markdown, parquet.")), []string{"kind"}),
		skipped:  prometheus.NewCounterVec(prometheus.CounterOpts(f("records_skipped_total", "Records that did not become rows, by kind.")), []string{"kind"}),
		phase:    prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "ccrawl", Name: "shard_phase_seconds", Help: "Per-shard time by phase (download, extract, write).", ConstLabels: labels, Buckets: prometheus.ExponentialBuckets(0.5, 2, 14)}, []string{"phase"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts(f("shards_inflight", "Shards being downloaded or converted."))),
		rate:     prometheus.NewGauge(prometheus.GaugeOpts(f("shards_per_hour", "Shards finished per hour since the start."))),
		freeDisk: prometheus.NewGauge(prometheus.GaugeOpts(f("free_disk_bytes", "Free disk under the output folder."))),
		rss:      prometheus.NewGauge(prometheus.GaugeOpts(f("rss_bytes", "Resident set size of the process."))),
	}
	reg.MustRegister(m.shards, m.rows, m.bytes, m.skipped, m.phase, m.inflight, m.rate, m.freeDisk, m.rss)
	for _, s := range []string{pipeline.StatusOK, pipeline.StatusFailed, pipeline.StatusSkipped} {
		m.shards.WithLabelValues(s)
	}
	return m
}

// Listen binds addr now, so a busy port fails before any work starts, and
// serves /metrics in the background until Close.
func (m *Metrics) Listen(addr string) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	m.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := m.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the run goes on without metrics
		}
	}()
	return ln.Addr(), nil
}

// Close stops the metrics server.
func (m *Metrics) Close() {
	if m.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		m.srv.Shutdown(ctx)
	}
}

// Handler serves the registry (for tests and embedding).
func (m *Metrics) Handler() http.Handler { return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}) }

// ShardDone implements pipeline.Observer.
func (m *Metrics) ShardDone(r pipeline.ShardResult) {
	m.shards.WithLabelValues(r.Status).Inc()
	st := r.Stats
	m.rows.Add(float64(st.Rows))
	m.bytes.WithLabelValues("warc").Add(float64(st.WARCBytes))
	m.bytes.WithLabelValues("html").Add(float64(st.HTMLBytes))
	m.bytes.WithLabelValues("markdown").Add(float64(st.MarkdownBytes))
	m.bytes.WithLabelValues("parquet").Add(float64(st.ParquetBytes))
	for k, v := range st.Skipped {
		m.skipped.WithLabelValues(k).Add(float64(v))
	}
	if r.Status == pipeline.StatusOK {
		m.phase.WithLabelValues("download").Observe(st.DownloadSecs)
		m.phase.WithLabelValues("extract").Observe(st.ExtractSecs)
		m.phase.WithLabelValues("write").Observe(st.WriteSecs)
	}
}

// Snapshot implements pipeline.Observer.
func (m *Metrics) Snapshot(s pipeline.Snapshot) {
	m.inflight.Set(float64(s.Inflight))
	m.rate.Set(s.RatePerHour)
	m.freeDisk.Set(float64(s.FreeDisk))
	m.rss.Set(float64(s.RSS))
}
