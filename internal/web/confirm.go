package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
)

// A severe, ceiling or never step is allowed only deliberately: the
// page's first press of its Allow sends nothing that allows. The server
// holds this too, not only the page's script: an allow of such a card
// without a confirm is refused, and the refusal carries a confirm for
// the second press. The confirm is the server's own, bound to the
// browser session, the tab, the card and the answer, and counts from
// card.ConfirmAfter to card.ConfirmLapse after it was given: a request
// alone, a confirm sent at once (a double click, a held key, a script
// that sends both at once), one of another card, answer or tab, and a
// lapsed one allow nothing.
const (
	// ConfirmHeader carries the confirm on the refusal of a first press.
	ConfirmHeader = "X-Sayso-Confirm"
	confirmField  = "confirm"
)

// confirmKey is the server's key for confirms: random, in memory only. A
// restart forgets the confirms it gave; the person presses again.
func newConfirmKey() []byte {
	k := make([]byte, keySize)
	if _, err := rand.Read(k); err != nil {
		panic("web: no randomness for the confirm key: " + err.Error())
	}
	return k
}

func (s *Server) confirmMAC(session, tab, id string, a card.Answer, at int64) []byte {
	m := hmac.New(sha256.New, s.confirmKey)
	m.Write([]byte("sayso page confirm\x00" + session + "\x00" + tab + "\x00" + id + "\x00" + a.String() + "\x00" + strconv.FormatInt(at, 10)))
	return m.Sum(nil)
}

// confirmFor gives a confirm of answer a to card, counting from now.
func (s *Server) confirmFor(r *http.Request, session, id string, a card.Answer) string {
	at := s.now().UnixMilli()
	return strconv.FormatInt(at, 10) + "." + base64.RawURLEncoding.EncodeToString(s.confirmMAC(session, r.Header.Get(TabHeader), id, a, at))
}

// confirmOK reports whether token is a confirm this server gave for
// answer a to card, in this session and tab, and is due and not lapsed.
func (s *Server) confirmOK(r *http.Request, session, id string, a card.Answer, token string) bool {
	ats, mac, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	at, err := strconv.ParseInt(ats, 10, 64)
	if err != nil {
		return false
	}
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil || !hmac.Equal(got, s.confirmMAC(session, r.Header.Get(TabHeader), id, a, at)) {
		return false
	}
	return card.Confirmable(s.now().Sub(time.UnixMilli(at))) == nil
}
