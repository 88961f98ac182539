package cli

import (
	"errors"
	"fmt"
)

// Exit codes, documented in the README. Mapped in one place (Main).
const (
	ExitOK         = 0
	ExitFailure    = 1
	ExitUsage      = 2
	ExitCredential = 4
)

// UsageError is a mistake in the command line: a bad flag value, a wrong
// combination, a missing argument. It maps to exit code 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// usagef builds a UsageError.
func usagef(format string, a ...any) error { return &UsageError{Msg: fmt.Sprintf(format, a...)} }

// CredentialError is a missing or unusable credential (HF_TOKEN). Exit 4.
type CredentialError struct{ Msg string }

func (e *CredentialError) Error() string { return e.Msg }

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ue *UsageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	var ce *CredentialError
	if errors.As(err, &ce) {
		return ExitCredential
	}
	return ExitFailure
}
