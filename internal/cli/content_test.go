package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A Vietnamese news home page: the content is headlines as link text, the
// link targets are plain ASCII slugs. With targets stripped the identifier
// sees Vietnamese; with them it would see a slug soup.
const vietHome = `<!doctype html><html lang="vi"><head><meta charset="utf-8"><title>Tin tức</title></head><body>
<nav><a href="/">Trang chủ</a></nav><main><article><h1>Tin tức hôm nay</h1><ul>
<li><a href="/thoi-su/chinh-phu-thong-qua-ke-hoach-phat-trien-giao-thong-2026-4561.html">Chính phủ thông qua kế hoạch phát triển giao thông đô thị trong năm tới</a></li>
<li><a href="/kinh-te/gia-lua-gao-tang-manh-o-dong-bang-song-cuu-long-4562.html">Giá lúa gạo tăng mạnh ở đồng bằng sông Cửu Long sau mùa mưa lũ</a></li>
<li><a href="/giao-duc/hoc-sinh-ha-noi-chuan-bi-cho-ky-thi-tot-nghiep-4563.html">Học sinh Hà Nội chuẩn bị cho kỳ thi tốt nghiệp trung học phổ thông</a></li>
<li><a href="/the-thao/doi-tuyen-viet-nam-gianh-chien-thang-quan-trong-4564.html">Đội tuyển Việt Nam giành chiến thắng quan trọng trên sân nhà</a></li>
<li><a href="/suc-khoe/bac-si-khuyen-cao-nguoi-dan-uong-du-nuoc-4565.html">Bác sĩ khuyến cáo người dân uống đủ nước trong những ngày nắng nóng</a></li>
<li><a href="/du-lich/ha-long-don-luong-khach-ky-luc-4566.html">Vịnh Hạ Long đón lượng khách du lịch kỷ lục trong dịp nghỉ lễ</a></li>
</ul><p>Cập nhật liên tục những tin tức mới nhất về thời sự, kinh tế, giáo dục và đời sống.</p></article></main>
<footer>Bản quyền thuộc về tòa soạn</footer></body></html>`

func TestContentLangVietnameseLinkPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if !strings.Contains(r.UserAgent(), "ccrawl") {
			t.Errorf("User-Agent %q does not name the tool", r.UserAgent())
		}
		if r.URL.Path == "/" {
			http.Redirect(w, r, "/home", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, vietHome)
	}))
	defer srv.Close()
	var out, errOut bytes.Buffer
	o := &contentLangOptions{URL: srv.URL + "/", Timeout: 5e9, Extractor: "trafilatura", Lang: "vie", MinLangConf: 0.8}
	if err := runContentLang(context.Background(), o, IO{Out: &out, ErrOut: &errOut}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "language:   vie (Vietnamese)") || !strings.Contains(s, "--lang vie would keep it") {
		t.Fatalf("output:\n%s", s)
	}
	if !strings.Contains(s, "final url:  "+srv.URL+"/home") {
		t.Errorf("redirect not shown:\n%s", s)
	}
	sample := s[strings.Index(s, "sample judged"):]
	if strings.Contains(sample, "thoi-su") || strings.Contains(sample, ".html") {
		t.Errorf("link targets left in the sample:\n%s", sample)
	}
	if !strings.Contains(sample, "Chính phủ thông qua") {
		t.Errorf("link text missing from the sample:\n%s", sample)
	}
}

func TestContentLangUsage(t *testing.T) {
	if _, _, code := runCLI(t, "content", "lang", "not-a-url"); code != 2 {
		t.Errorf("bad URL: exit %d", code)
	}
	if _, stderr, code := runCLI(t, "content", "lang", "http://127.0.0.1:1/", "--lang", "xxx"); code != 2 || !strings.Contains(stderr, "vie") {
		t.Errorf("unknown --lang: exit %d %s", code, stderr)
	}
}
