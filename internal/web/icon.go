package web

import (
	"fmt"
	"net/http"
	"strconv"
)

// icon draws the page's favicon with the number of waiting cards on it,
// so that a tab in the background shows the count. It holds no state:
// the page's script asks for the number it already knows.
func (s *Server) icon(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 0 {
		http.NotFound(w, r)
		return
	}
	label := strconv.Itoa(n)
	if n > 9 {
		label = "9+"
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "max-age=86400")
	fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">`)
	fmt.Fprint(w, `<rect x="1" y="1" width="30" height="30" rx="7" fill="#0b57d0"/><text x="16" y="23" font-family="sans-serif" font-size="19" font-weight="700" fill="#fff" text-anchor="middle">s</text>`)
	if n > 0 {
		fmt.Fprintf(w, `<circle cx="22" cy="10" r="10" fill="#c5221f"/><text x="22" y="15" font-family="sans-serif" font-size="%d" font-weight="700" fill="#fff" text-anchor="middle">%s</text>`, map[bool]int{true: 11, false: 14}[n > 9], label)
	}
	fmt.Fprint(w, `</svg>`)
}
