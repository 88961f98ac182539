package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
)

// Error classes, the values of Result.ErrClass. They are a closed set so a
// dataset column can be grouped on them; Result.Err keeps the detail.
const (
	ClassDNS        = "dns"
	ClassTimeout    = "timeout"
	ClassRefused    = "refused"
	ClassReset      = "reset"
	ClassTLS        = "tls"
	ClassHTTPStatus = "http_status"
	ClassTooLarge   = "too_large"
	ClassRobots     = "robots"
	ClassOther      = "other"
)

// ErrRobots is wrapped by the error of a fetch that robots.txt disallows.
var ErrRobots = errors.New("disallowed by robots.txt")

// ErrTooLarge is wrapped by the error of a fetch whose body exceeds MaxBodyBytes.
var ErrTooLarge = errors.New("body exceeds the size cap")

type tooLargeError struct {
	url      string
	limit    int64
	declared int64
}

func (e *tooLargeError) Error() string {
	if e.declared > 0 {
		return fmt.Sprintf("%s: body of %d bytes exceeds the %d-byte cap; raise MaxBodyBytes to keep it", e.url, e.declared, e.limit)
	}
	return fmt.Sprintf("%s: body exceeds the %d-byte cap; raise MaxBodyBytes to keep it", e.url, e.limit)
}

func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// classify maps a fetch error to its class. Order matters: a DNS error can
// also be a timeout (and is reported as dns, the cause), and TLS is checked
// before reset because a handshake cut short surfaces as both.
func classify(err error) string {
	if err == nil {
		return ""
	}
	var (
		dnsErr   *net.DNSError
		unknown  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		certErr  x509.CertificateInvalidError
		verify   *tls.CertificateVerificationError
		recErr   tls.RecordHeaderError
		alertErr tls.AlertError
		netErr   net.Error
	)
	switch {
	case errors.Is(err, ErrRobots):
		return ClassRobots
	case errors.Is(err, ErrTooLarge):
		return ClassTooLarge
	case errors.As(err, &dnsErr):
		return ClassDNS
	case errors.As(err, &unknown), errors.As(err, &hostErr), errors.As(err, &certErr),
		errors.As(err, &verify), errors.As(err, &recErr), errors.As(err, &alertErr):
		return ClassTLS
	case errors.Is(err, syscall.ECONNREFUSED):
		return ClassRefused
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return ClassTimeout
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return ClassReset
	}
	// Some TLS failures (e.g. "tls: first record does not look like a TLS
	// handshake" variants, handshake failures) are plain errors from
	// crypto/tls with no type to match; their prefix is stable.
	if msg := err.Error(); strings.Contains(msg, "tls: ") || strings.Contains(msg, "x509: ") {
		return ClassTLS
	}
	if strings.Contains(err.Error(), "server closed idle connection") {
		return ClassReset
	}
	return ClassOther
}
