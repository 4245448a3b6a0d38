package web

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

func (s *Server) notePage(w http.ResponseWriter, r *http.Request, session string) {
	note, err := s.backend.Note(r.Context())
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	v := view{Title: "Environment note", Nav: "note", Note: note, NoteMax: MaxNote}
	if r.URL.Query().Get("saved") == "1" {
		v.Flash = "Saved."
	}
	s.render(w, r, http.StatusOK, "note", session, v)
}

// setNote saves the note as typed. A form sends each line break as CR LF
// whatever the person typed; it is kept as the LF the text field held.
func (s *Server) setNote(w http.ResponseWriter, r *http.Request, session string) {
	note := strings.ReplaceAll(r.PostForm.Get("note"), "\r\n", "\n")
	if !utf8.ValidString(note) {
		s.fail(w, r, session, http.StatusBadRequest, "refused: the note is not UTF-8 text")
		return
	}
	if n := utf8.RuneCountInString(note); n > MaxNote {
		v := view{Title: "Environment note", Nav: "note", Note: note, NoteMax: MaxNote,
			Error: fmt.Sprintf("Not saved: the note holds at most %d characters; this one has %d.", MaxNote, n)}
		s.render(w, r, http.StatusRequestEntityTooLarge, "note", session, v)
		return
	}
	if err := s.backend.SetNote(r.Context(), note); err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	back(w, r, "/note?saved=1")
}
