package gateway

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/store"
)

// Record keeps what a hook read that is not a step: sessions, messages with
// their source, tasks. A message is the person's only when the adapter
// found positive evidence.
func (d *Decider) Record(ctx context.Context, events []client.Event) error {
	for _, e := range events {
		if err := d.record(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

func (d *Decider) record(ctx context.Context, e client.Event) error {
	pol := policy.Load(policy.Files{Person: filepath.Join(d.ConfigDir, "policy.toml"), ReadFile: os.ReadFile})
	sess := store.NewSession{ID: e.Session, Agent: e.Agent, Mode: pol.DefaultMode.String()}
	if e.Session == "" {
		return nil
	}
	switch e.Kind {
	case client.EventSession:
		_, err := d.DB.EnsureSession(ctx, sess)
		return err
	case client.EventMessage:
		if e.Task != "" {
			sess.ID = e.Task
		}
		_, err := d.DB.AddMessage(ctx, sess, store.NewMessage{Source: sourceOf(e.Source), Turn: e.Turn, Text: e.Text, Cwd: e.Cwd})
		return err
	case client.EventTask:
		if e.Task == "" {
			return nil
		}
		return d.ensureTask(ctx, e.Agent, e.Session, e.Task, e.Text, pol)
	case client.EventTaskEnd:
		if e.Task == "" {
			return nil
		}
		err := d.DB.EndTask(ctx, e.Task)
		if errors.Is(err, store.ErrNotFound) {
			return nil // a sub-agent sayso never saw start holds no place
		}
		return err
	case client.EventSpawnEnd:
		err := d.DB.EndSpawn(ctx, e.Session)
		if errors.Is(err, store.ErrNotFound) {
			return nil // a session sayso never saw holds no place
		}
		return err
	case client.EventSessionEnd:
		err := d.DB.EndSession(ctx, e.Session)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	}
	return nil
}

// ensureTask makes the task of a parent session once, with the parent's
// words as the store copies them; a task already made is left as it is.
func (d *Decider) ensureTask(ctx context.Context, agent, parent, task, prompt string, pol *policy.Policy) error {
	if _, err := d.DB.Session(ctx, task); err == nil {
		return nil
	}
	if _, err := d.DB.EnsureSession(ctx, store.NewSession{ID: parent, Agent: agent, Mode: pol.DefaultMode.String()}); err != nil {
		return err
	}
	_, err := d.DB.CreateTask(ctx, store.NewTask{ID: task, Agent: agent, Parent: parent, Prompt: prompt, OwnerWordsMax: pol.OwnerWordsMax})
	if err != nil {
		if _, again := d.DB.Session(ctx, task); again == nil {
			return nil // another hook made it first
		}
	}
	return err
}

func sourceOf(s client.Source) store.Source {
	switch s {
	case client.SourcePerson:
		return store.SourcePerson
	case client.SourceDelegated:
		return store.SourceDelegated
	}
	return store.SourceSystem
}

// Socket is where sayso serve listens for hooks, in the state folder.
func Socket() (string, error) {
	dir, err := paths.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, paths.SocketName), nil
}
