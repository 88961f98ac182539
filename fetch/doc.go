// Package fetch is the live HTTP fetcher behind `ccrawl markdown refetch` and
// `ccrawl content lang`: it fetches pages politely (per-host concurrency and
// request rate, robots.txt, a shared keep-alive transport), records what the
// server sent (status line and headers as received, capped body, SHA-1,
// timings, peer IP) and classifies every failure into one short class that a
// dataset column can hold.
//
// It deliberately does not retry, render JavaScript, decode charsets, parse
// HTML, write files or decide which URLs to fetch: a failed fetch is a result
// with an ErrClass, and what to do with it is the caller's decision. It speaks
// HTTP/1.1 only, because that is what lets it keep the response head byte for
// byte, as a WARC writer needs, and it ignores proxy environment variables so a
// crawl never silently goes through a proxy.
//
// Nothing here reaches the network by itself: the dial and resolve steps are
// Options hooks, so tests map any number of virtual hosts onto loopback
// servers and simulate DNS failures.
package fetch
