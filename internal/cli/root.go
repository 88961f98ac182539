// Package cli is the command-line layer of ccrawl: it parses flags into each
// command's Options struct and calls the stage packages. No other package
// parses flags or decides exit codes.
package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"
)

// IO is the set of streams a command writes to; tests pass buffers.
type IO struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// NewRootCmd builds the whole command tree.
func NewRootCmd(streams IO) *cobra.Command {
	root := &cobra.Command{
		Use:           "ccrawl",
		Short:         "Turn Common Crawl WARC shards into clean Markdown Parquet datasets",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	// Flag parse errors are usage errors (exit 2).
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &UsageError{Msg: err.Error() + " (see '" + c.CommandPath() + " --help')"}
	})

	// Profiling for benchmark work; hidden from --help.
	var cpuProfile string
	var stopProfile func()
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to this file")
	root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
		return nil
	}
	root.PersistentPostRun = func(cmd *cobra.Command, args []string) {
		if stopProfile != nil {
			stopProfile()
		}
	}

	root.AddCommand(
		newVersionCmd(streams),
		newMarkdownCmd(streams),
		newHeadCmd(streams),
		newDedupCmd(streams),
		newLangCmd(streams),
		newContentCmd(streams),
	)
	return root
}

// Main runs the command line and returns the process exit code.
func Main(args []string, in io.Reader, out, errOut io.Writer) int {
	streams := IO{In: in, Out: out, ErrOut: errOut}
	root := NewRootCmd(streams)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		msg := err.Error()
		// cobra reports unknown commands and arg-count problems as plain
		// errors; they are usage errors too.
		if isCobraUsage(msg) {
			err = &UsageError{Msg: msg}
		}
		fmt.Fprintln(errOut, "ccrawl: "+firstLine(err.Error()))
	}
	return exitCode(err)
}

func isCobraUsage(msg string) bool {
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires at least", "requires at most", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
