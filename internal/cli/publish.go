package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/open-markdown/ccrawl/hub"
	"github.com/open-markdown/ccrawl/pipeline"
	"github.com/spf13/cobra"
)

// publishOptions turn on publishing to a HuggingFace dataset repo.
type publishOptions struct {
	Repo        string
	Push        bool
	HubURL      string
	Private     bool
	CommitBatch int
	KeepParquet bool
}

func addPublishFlags(cmd *cobra.Command, o *publishOptions) {
	f := cmd.Flags()
	f.StringVar(&o.Repo, "repo", "", "publish each finished shard to this HuggingFace dataset repo (org/name); needs HF_TOKEN")
	f.BoolVar(&o.Push, "push", true, "with --repo: push to the Hub (--push=false keeps everything local)")
	f.StringVar(&o.HubURL, "hub-url", "", "Hub endpoint (env HF_ENDPOINT, default https://huggingface.co)")
	f.BoolVar(&o.Private, "private", false, "create the repo private")
	f.IntVar(&o.CommitBatch, "commit-batch", 1, "shards per Hub commit")
	f.BoolVar(&o.KeepParquet, "keep-parquet", false, "keep local Parquet files after they are committed to the Hub")
}

// pushing reports whether this run publishes.
func (o *publishOptions) pushing() bool { return o.Repo != "" && o.Push }

// check validates the publish flags and the token before any work:
// a missing token is exit 4, a malformed repo id exit 2.
func (o *publishOptions) check() (*hub.Client, error) {
	if o.CommitBatch < 1 {
		return nil, usagef("--commit-batch must be at least 1")
	}
	if !o.pushing() {
		return nil, nil
	}
	if err := hub.ValidateRepoID(o.Repo); err != nil {
		return nil, usagef("--repo: %v", err)
	}
	token, ok := hub.TokenFromEnv()
	if !ok {
		return nil, &CredentialError{Msg: "--repo " + o.Repo + " needs a Hugging Face token: set HF_TOKEN (or HUGGINGFACE_TOKEN), or pass --push=false to keep the dataset local"}
	}
	endpoint := o.HubURL
	if endpoint == "" {
		endpoint = hub.EndpointFromEnv()
	}
	return &hub.Client{Endpoint: strings.TrimRight(endpoint, "/"), Token: token, UserAgent: userAgent()}, nil
}

// publisher starts the Hub committer (creating the repo if absent).
func (o *publishOptions) publisher(ctx context.Context, client *hub.Client, ledgerPath, crawl string, info pipeline.CardInfo, streams IO) (pipeline.Publisher, error) {
	if client == nil {
		return nil, nil
	}
	prior, err := pipeline.OpenLedger(ledgerPath)
	if err != nil {
		return nil, err
	}
	info.Repo = o.Repo
	p, err := pipeline.NewHubPublisher(ctx, pipeline.PublisherConfig{
		Client: client, Repo: o.Repo, Private: o.Private, BatchSize: o.CommitBatch, Crawl: crawl,
		KeepParquet: o.KeepParquet, Card: info, Prior: prior.Entries(),
		Log: func(s string) { fmt.Fprintln(streams.ErrOut, "publish: "+s) },
	})
	if err != nil {
		return nil, fmt.Errorf("--repo %s: %w", o.Repo, err)
	}
	return p, nil
}

// writeLocalCard writes the dataset card for everything the ledger records
// to <out>/README.md, the same card a published repo gets.
func writeLocalCard(out, ledgerPath string, info pipeline.CardInfo) error {
	l, err := pipeline.OpenLedger(ledgerPath)
	if err != nil {
		return err
	}
	if l.Len() == 0 {
		return nil
	}
	if info.Repo == "" {
		info.Repo = "local/" + filepath.Base(filepath.Clean(out))
	}
	card := hub.RenderCard(pipeline.Card(info, l.Entries()))
	tmp := filepath.Join(out, ".README.md.tmp")
	if err := os.WriteFile(tmp, card, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(out, "README.md"))
}

// filtersOf describes the filters a run applied, for the card.
func filtersOf(dedup bool, langCode string, floor float64) []string {
	var f []string
	if dedup {
		f = append(f, "exact duplicates dropped by WARC payload digest within each shard (--dedup-digest)")
	}
	if langCode != "" {
		f = append(f, fmt.Sprintf("language = %s with confidence >= %.2f (--lang)", langCode, floor))
	}
	return f
}
