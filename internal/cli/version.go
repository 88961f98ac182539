package cli

import (
	"fmt"
	"runtime"

	"github.com/open-markdown/ccrawl/internal/version"
	"github.com/spf13/cobra"
)

func newVersionCmd(streams IO) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the ccrawl version and the extraction libraries it was built with",
		Example: "  ccrawl version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(streams.Out, "ccrawl %s (%s)\n", version.Tool, runtime.Version())
			for _, m := range []string{"github.com/markusmobius/go-trafilatura", "codeberg.org/readeck/go-readability/v2", "github.com/JohannesKaufmann/html-to-markdown/v2", "github.com/parquet-go/parquet-go"} {
				fmt.Fprintf(streams.Out, "  %s %s\n", m, version.Module(m))
			}
			return nil
		},
	}
}
