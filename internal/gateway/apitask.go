package gateway

import (
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/store"
)

// TaskRequest makes a task of one of the host's sessions: POST
// /api/v1/tasks. The task takes a frozen copy of its parent's owner words
// when the parent holds the person's words and no guest's, the task is
// not scoped and the words fit owner_words_max; its prompt is delegated
// and grants nothing.
type TaskRequest struct {
	Session string `json:"session"` // the parent: the host's conversation id
	Task    string `json:"task"`    // the host's id for the task
	Prompt  string `json:"prompt"`
	Scoped  bool   `json:"scoped,omitempty"` // a scoped task takes no owner words
}

// TaskReply is the task as made: what it took from its parent, or why
// nothing.
type TaskReply struct {
	Session string `json:"session"` // the parent, as the store names it
	Task    string `json:"task"`
	Scoped  bool   `json:"scoped"`
	Copied  int    `json:"copied"`        // owner words copied
	Why     string `json:"why,omitempty"` // why none were, when copied is 0
}

func (a *API) submitTask(w http.ResponseWriter, r *http.Request, host store.Host) {
	var q TaskRequest
	if err := decode(r, &q); err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	switch {
	case q.Session == "" || len(q.Session) > 200 || q.Task == "" || len(q.Task) > 200:
		apiError(w, http.StatusBadRequest, "session and task are required, each at most 200 characters")
		return
	case q.Task == q.Session:
		apiError(w, http.StatusBadRequest, "a task needs an id of its own, not its session's")
		return
	case len(q.Prompt) > maxMessage || !utf8.ValidString(q.Prompt):
		apiError(w, http.StatusBadRequest, "prompt must be UTF-8 of at most 64 KiB")
		return
	}
	ctx := r.Context()
	parent, id := host.Name+":"+q.Session, host.Name+":"+q.Task
	if _, err := a.Decider.DB.Session(ctx, id); err == nil {
		apiError(w, http.StatusConflict, "refused: "+q.Task+" exists; a task is made once")
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		serverError(w, "read its sessions", err)
		return
	}
	pol := policy.Load(policy.Files{Person: filepath.Join(a.Decider.ConfigDir, "policy.toml"), ReadFile: os.ReadFile})
	if _, err := a.Decider.DB.EnsureSession(ctx, store.NewSession{ID: parent, Agent: host.Name, Mode: pol.DefaultMode.String()}); err != nil {
		serverError(w, "keep the session", err)
		return
	}
	t, err := a.Decider.DB.CreateTask(ctx, store.NewTask{ID: id, Agent: host.Name, Parent: parent, Prompt: q.Prompt, Scoped: q.Scoped, OwnerWordsMax: pol.OwnerWordsMax})
	if err != nil {
		if _, again := a.Decider.DB.Session(ctx, id); again == nil {
			apiError(w, http.StatusConflict, "refused: "+q.Task+" exists; a task is made once")
			return
		}
		serverError(w, "make the task", err)
		return
	}
	apiJSON(w, http.StatusCreated, TaskReply{Session: parent, Task: t.Session.ID, Scoped: t.Session.Scoped, Copied: t.Copied, Why: t.Why})
}

// taskOf checks that task names a task the host made of its session, and
// returns the store's id for it. A task the host never made is refused:
// the host says a task's scope when it makes it, and a step cannot skip
// that. When it is refused, taskOf answers w and returns false.
func (a *API) taskOf(w http.ResponseWriter, r *http.Request, host store.Host, session, task string) (string, bool) {
	if len(task) > 200 {
		apiError(w, http.StatusBadRequest, "task is at most 200 characters")
		return "", false
	}
	id := host.Name + ":" + task
	s, err := a.Decider.DB.Session(r.Context(), id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && s.Parent != host.Name+":"+session:
		apiError(w, http.StatusNotFound, "no task "+task+" of session "+session+": make it first with POST /api/v1/tasks")
		return "", false
	case err != nil:
		slog.Error("api: read the sessions", "err", err)
		apiError(w, http.StatusInternalServerError, "sayso could not read its sessions; "+seeLog)
		return "", false
	}
	return id, true
}
