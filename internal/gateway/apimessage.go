package gateway

import (
	"net/http"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/store"
)

// MessageRequest is a message a host's session received, with the source
// the host labels it with: POST /api/v1/messages.
type MessageRequest struct {
	Session string `json:"session"`
	Turn    string `json:"turn,omitempty"`
	Task    string `json:"task,omitempty"` // the task of the session that received it, made with POST /api/v1/tasks
	Source  string `json:"source"`         // delegated, system or guest; person only for a host added with --person
	Text    string `json:"text"`
	Cwd     string `json:"cwd,omitempty"` // absolute, when given: a person's lease line binds to it
}

// MessageReply is the message as kept.
type MessageReply struct {
	ID      int64  `json:"id"`
	Session string `json:"session"`
	Turn    string `json:"turn"`
	Source  string `json:"source"`
	Lease   int64  `json:"lease,omitempty"` // the lease a person's "/sayso lease CATEGORY" line granted
}

// maxMessage bounds a message's text.
const maxMessage = 64 << 10

func (a *API) submitMessage(w http.ResponseWriter, r *http.Request, host store.Host) {
	var q MessageRequest
	if err := decode(r, &q); err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	src, err := store.ParseSource(q.Source)
	switch {
	case err != nil:
		apiError(w, http.StatusBadRequest, err.Error())
		return
	case src == store.SourcePerson && !host.Person:
		apiError(w, http.StatusForbidden, "refused: host "+host.Name+" may not label a message as the person's (sayso host add --person)")
		return
	case q.Session == "" || len(q.Session) > 200 || len(q.Turn) > 200:
		apiError(w, http.StatusBadRequest, "session is required; session and turn hold at most 200 characters")
		return
	case q.Cwd != "" && !filepath.IsAbs(q.Cwd):
		apiError(w, http.StatusBadRequest, "cwd must be an absolute folder")
		return
	case len(q.Text) > maxMessage || !utf8.ValidString(q.Text):
		apiError(w, http.StatusBadRequest, "text must be UTF-8 of at most 64 KiB")
		return
	}
	pol := policy.Load(policy.Files{Person: filepath.Join(a.Decider.ConfigDir, "policy.toml"), ReadFile: os.ReadFile})
	sess := store.NewSession{ID: host.Name + ":" + q.Session, Agent: host.Name, Mode: pol.DefaultMode.String()}
	if q.Task != "" {
		id, ok := a.taskOf(w, r, host, q.Session, q.Task)
		if !ok {
			return
		}
		sess.ID = id
	}
	m, err := a.Decider.DB.AddMessage(r.Context(), sess, store.NewMessage{Source: src, Turn: q.Turn, Text: q.Text, Cwd: q.Cwd})
	if err != nil {
		serverError(w, "keep the message", err)
		return
	}
	reply := MessageReply{ID: m.ID, Session: m.Session, Turn: m.Turn, Source: string(m.Source)}
	if m.Lease != nil {
		reply.Lease = m.Lease.ID
	}
	apiJSON(w, http.StatusCreated, reply)
}
