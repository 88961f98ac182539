package fetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// dialer resolves through the LookupHost hook (if any), dials through the
// DialContext hook (if any) and wraps every connection in a recConn so the
// response head can be kept exactly as received.
type dialer struct {
	lookup    func(ctx context.Context, host string) ([]string, error)
	dial      func(ctx context.Context, network, addr string) (net.Conn, error)
	tlsConfig *tls.Config
}

var defaultNetDialer = &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}

func (d *dialer) connect(ctx context.Context, network, addr string) (net.Conn, error) {
	dial := d.dial
	if dial == nil {
		dial = defaultNetDialer.DialContext
	}
	if d.lookup == nil {
		return dial(ctx, network, addr)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if net.ParseIP(host) != nil {
		return dial(ctx, network, addr)
	}
	addrs, err := d.lookup(ctx, host)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no addresses")
	}
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) {
			return nil, err
		}
		// A hook's own error type still means "name did not resolve".
		return nil, &net.DNSError{Err: err.Error(), Name: host, IsNotFound: true}
	}
	var lastErr error
	for _, ip := range addrs {
		c, err := dial(ctx, network, net.JoinHostPort(ip, port))
		if err == nil {
			return c, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

func (d *dialer) dialPlain(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := d.connect(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &recConn{Conn: c}, nil
}

// dialTLS does the handshake itself so the wrapper sits above TLS and sees
// plaintext; offering only http/1.1 keeps the server from choosing h2, whose
// binary frames have no "head as received".
func (d *dialer) dialTLS(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	raw, err := d.connect(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{}
	if d.tlsConfig != nil {
		cfg = d.tlsConfig.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	cfg.NextProtos = []string{"http/1.1"}
	tc := tls.Client(raw, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, fmt.Errorf("tls handshake with %s: %w", addr, err)
	}
	return &recConn{Conn: tc}, nil
}

// recConn copies what the transport reads, between startCapture and the end
// of the response head, so Result.RespHeaders is byte-for-byte what the
// server sent (order, case, duplicates), which net/http's Header map loses.
type recConn struct {
	net.Conn
	mu      sync.Mutex
	on      bool
	buf     []byte
	head    []byte // complete head once found
	overrun bool
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		c.feed(p[:n])
		c.mu.Unlock()
	}
	return n, err
}

// feed appends b while capturing and stops once a complete non-1xx head is
// seen. Callers hold c.mu.
func (c *recConn) feed(b []byte) {
	if !c.on {
		return
	}
	c.buf = append(c.buf, b...)
	for {
		end := headEnd(c.buf)
		if end < 0 {
			if len(c.buf) > maxHeadBytes {
				c.on, c.overrun, c.buf = false, true, nil
			}
			return
		}
		if isInformational(c.buf[:end]) {
			// 100 Continue / 103 Early Hints precede the real response.
			c.buf = append(c.buf[:0], c.buf[end:]...)
			continue
		}
		c.head = append([]byte(nil), c.buf[:end]...)
		c.on, c.buf = false, nil
		return
	}
}

func (c *recConn) startCapture() {
	c.mu.Lock()
	c.on, c.buf, c.head, c.overrun = true, c.buf[:0], nil, false
	c.mu.Unlock()
}

// takeCapture returns the captured head, or "" if none was completed.
func (c *recConn) takeCapture() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := string(c.head)
	c.on, c.buf, c.head = false, nil, nil
	return h
}

// headEnd returns the index just past the blank line ending an HTTP head,
// accepting bare LF line ends as net/http does, or -1.
func headEnd(b []byte) int {
	for i := 0; i < len(b); i++ {
		if b[i] != '\n' {
			continue
		}
		if i+1 < len(b) && b[i+1] == '\n' {
			return i + 2
		}
		if i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n' {
			return i + 3
		}
	}
	return -1
}

func isInformational(head []byte) bool {
	// "HTTP/1.1 1xx" — the status code starts after the first space.
	sp := bytes.IndexByte(head, ' ')
	return sp > 0 && sp+1 < len(head) && head[sp+1] == '1' && bytes.HasPrefix(head, []byte("HTTP/"))
}
