package store

import (
	"context"
	"fmt"
)

// Answers the person gives a card.
const (
	AnswerAllowOnce = "allow-once"
	AnswerAlways    = "always"
	AnswerDeny      = "deny"
)

// RecordAnswer records the person's answer to a card about a step. A deny
// counts toward the session's breaker.
func (db *DB) RecordAnswer(ctx context.Context, session, answer, step string) error {
	switch answer {
	case AnswerAllowOnce, AnswerAlways, AnswerDeny:
	default:
		return fmt.Errorf("record answer in %s: unknown answer %q", session, answer)
	}
	err := db.update(ctx, func(tx *tx) error {
		if _, err := tx.session(ctx, session); err != nil {
			return err
		}
		if answer == AnswerDeny {
			if _, err := tx.ExecContext(ctx, "INSERT INTO breaker (session, kind, created_at) VALUES (?, 'decline', ?)", session, nanos(tx.now)); err != nil {
				return err
			}
		}
		step := Cap(step)
		_, err := tx.appendLedger(ctx, KindAnswer, session, answer+": "+step, map[string]string{"answer": answer, "step": step})
		return err
	})
	if err != nil {
		return fmt.Errorf("record answer in %s: %w", session, err)
	}
	return nil
}

// RecordCardExpired records that a card stopped waiting without an answer
// the hook took: it timed out, or the hook went away. Nothing was kept.
func (db *DB) RecordCardExpired(ctx context.Context, session, step, why string) error {
	err := db.update(ctx, func(tx *tx) error {
		if _, err := tx.session(ctx, session); err != nil {
			return err
		}
		step := Cap(step)
		_, err := tx.appendLedger(ctx, KindCardExpired, session, "card expired: "+step+": "+why, map[string]string{"step": step, "why": why})
		return err
	})
	if err != nil {
		return fmt.Errorf("record expired card in %s: %w", session, err)
	}
	return nil
}
