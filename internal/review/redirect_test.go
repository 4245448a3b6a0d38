package review

import "net/http"

func redirectTo(url string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, url+r.URL.Path, http.StatusTemporaryRedirect)
	})
}
