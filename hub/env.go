package hub

import (
	"os"
	"strings"
)

// DefaultEndpoint is the public Hugging Face Hub.
const DefaultEndpoint = "https://huggingface.co"

// TokenFromEnv returns the Hub token from HF_TOKEN, falling back to
// HUGGINGFACE_TOKEN (the older name some CI setups still export). The bool
// is false when neither is set to a non-blank value; the CLI maps that to
// its credential exit code.
func TokenFromEnv() (string, bool) {
	for _, name := range []string{"HF_TOKEN", "HUGGINGFACE_TOKEN"} {
		if v := strings.TrimSpace(os.Getenv(name)); v != "" {
			return v, true
		}
	}
	return "", false
}

// EndpointFromEnv returns HF_ENDPOINT without a trailing slash, or
// DefaultEndpoint when it is unset. A --hub-url flag should win over it.
func EndpointFromEnv() string {
	if v := strings.TrimSpace(os.Getenv("HF_ENDPOINT")); v != "" {
		return strings.TrimRight(v, "/")
	}
	return DefaultEndpoint
}
