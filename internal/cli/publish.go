package cli

import (
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
	f.StringVar(&o.Repo, "repo", "", "publish each finished shard to this HuggingFace dataset repo (org/name)")
	f.BoolVar(&o.Push, "push", true, "with --repo: push to the Hub (--push=false keeps everything local)")
	f.StringVar(&o.HubURL, "hub-url", "", "Hub endpoint (env HF_ENDPOINT, default https://huggingface.co)")
	f.BoolVar(&o.Private, "private", false, "create the repo private")
	f.IntVar(&o.CommitBatch, "commit-batch", 1, "shards per Hub commit")
	f.BoolVar(&o.KeepParquet, "keep-parquet", false, "keep local Parquet files after they are committed to the Hub")
}

// validate checks the publish flags; TODO(lead): wire hub.Committer.
func (o *publishOptions) validate() (pipeline.Publisher, error) {
	if o.Repo != "" && o.Push {
		return nil, usagef("--repo: publishing is not wired yet")
	}
	return nil, nil
}

func (o *publishOptions) writeLocalCard(out, name string, cfg *pipeline.ExportConfig, res pipeline.RunResult) error {
	return nil
}
