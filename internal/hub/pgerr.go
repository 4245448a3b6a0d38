package hub

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// isChainError reports the chain trigger's refusal, or a row shipped twice.
func isChainError(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	return pe.Code == "23000" || pe.Code == "23505" // integrity_constraint_violation, unique_violation
}

// isUnique reports a unique constraint's refusal.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}
