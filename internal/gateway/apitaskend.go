package gateway

import (
	"net/http"

	"github.com/sayso-dev/sayso/internal/store"
)

// TaskEndRequest says one of the host's tasks stopped: POST
// /api/v1/tasks/end. It no longer counts against max_parallel.
type TaskEndRequest struct {
	Session string `json:"session"` // the task's parent: the host's conversation id
	Task    string `json:"task"`    // the host's id for the task
}

// endTask ends a task the host made of its session. A task of another
// host, or none, is 404; ending it again changes nothing.
func (a *API) endTask(w http.ResponseWriter, r *http.Request, host store.Host) {
	var q TaskEndRequest
	if err := decode(r, &q); err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	if q.Session == "" || len(q.Session) > 200 || q.Task == "" {
		apiError(w, http.StatusBadRequest, "session and task are required, each at most 200 characters")
		return
	}
	id, ok := a.taskOf(w, r, host, q.Session, q.Task)
	if !ok {
		return
	}
	if err := a.Decider.DB.EndTask(r.Context(), id); err != nil {
		apiError(w, http.StatusInternalServerError, "sayso could not end the task; see sayso serve's log")
		return
	}
	apiJSON(w, http.StatusOK, map[string]any{"session": host.Name + ":" + q.Session, "task": id, "ended": true})
}
