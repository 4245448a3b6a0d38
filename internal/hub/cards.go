package hub

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sayso-dev/sayso/internal/hubapi"
)

// Card is a card waiting on a node for its person.
type Card struct {
	ID      string
	Node    int64
	Person  int64
	Body    []byte // the node's card, as the node made it: what the person's passkey signs over
	Digest  []byte
	Created time.Time
	// Confirm is the node's challenge for the second confirmation of a
	// severe, ceiling or never step, once it took the person's first
	// yes; nil until then.
	Confirm []byte
}

// Channels the hub's triggers ring when a card or an answer is written,
// and when a change is offered or signed.
const (
	ChannelCards   = "sayso_cards"
	ChannelAnswers = "sayso_answers"
	ChannelChanges = "sayso_changes"
)

// PostCard records a card waiting on node for the node's person. A card
// posted again (the node did not hear the hub's reply) is kept as it was.
func (h *Hub) PostCard(ctx context.Context, node int64, id string, body []byte) error {
	d := sha256.Sum256(body)
	_, err := h.pool.Exec(ctx, `INSERT INTO cards (id, node_id, person_id, body, digest)
		SELECT $1, id, person_id, $3, $4 FROM nodes WHERE id = $2 AND left_at IS NULL
		ON CONFLICT (id) DO NOTHING`, id, node, body, d[:])
	if err != nil {
		return fmt.Errorf("post card %s: %w", id, err)
	}
	return nil
}

// CloseCard marks a card no longer waiting: answered, or its hook gone.
func (h *Hub) CloseCard(ctx context.Context, id string) error {
	_, err := h.pool.Exec(ctx, "UPDATE cards SET closed_at = now() WHERE id = $1 AND closed_at IS NULL", id)
	if err != nil {
		return fmt.Errorf("close card %s: %w", id, err)
	}
	return nil
}

// AskConfirm records node's challenge for the second confirmation of its
// card id; nil withdraws it.
func (h *Hub) AskConfirm(ctx context.Context, node int64, id string, challenge []byte) error {
	tag, err := h.pool.Exec(ctx, "UPDATE cards SET confirm = $3 WHERE id = $1 AND node_id = $2 AND closed_at IS NULL", id, node, challenge)
	if err != nil {
		return fmt.Errorf("ask to confirm card %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("ask to confirm card %s: %w", id, ErrClosed)
	}
	return nil
}

// OpenCards returns the cards waiting for person on any of their nodes,
// oldest first. The table is the truth: a page that reconnects calls it
// again, whatever notifications it missed.
func (h *Hub) OpenCards(ctx context.Context, person int64) ([]Card, error) {
	rows, err := h.pool.Query(ctx, "SELECT id, node_id, person_id, body, digest, created_at, confirm FROM cards WHERE person_id = $1 AND closed_at IS NULL ORDER BY created_at, id", person)
	if err != nil {
		return nil, fmt.Errorf("open cards of person %d: %w", person, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Card, error) {
		var c Card
		err := r.Scan(&c.ID, &c.Node, &c.Person, &c.Body, &c.Digest, &c.Created, &c.Confirm)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("open cards of person %d: %w", person, err)
	}
	return out, nil
}

// ErrClosed is returned for an answer to a card no longer waiting.
var ErrClosed = errors.New("the card is no longer waiting")

// AddAnswer records an answer given at the hub's page to a waiting card.
func (h *Hub) AddAnswer(ctx context.Context, card, verdict string, assertion []byte) error {
	tag, err := h.pool.Exec(ctx, `INSERT INTO answers (card_id, verdict, assertion)
		SELECT id, $2, $3 FROM cards WHERE id = $1 AND closed_at IS NULL`, card, verdict, assertion)
	if err != nil {
		return fmt.Errorf("answer card %s: %w", card, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("answer card %s: %w", card, ErrClosed)
	}
	return nil
}

// Answers returns the answers given to a card, oldest first.
func (h *Hub) Answers(ctx context.Context, card string) ([]hubapi.Answer, error) {
	rows, err := h.pool.Query(ctx, "SELECT id, card_id, verdict, coalesce(assertion, ''), created_at FROM answers WHERE card_id = $1 ORDER BY id", card)
	if err != nil {
		return nil, fmt.Errorf("answers to card %s: %w", card, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hubapi.Answer, error) {
		var a hubapi.Answer
		err := r.Scan(&a.ID, &a.Card, &a.Verdict, &a.Assertion, &a.Created)
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("answers to card %s: %w", card, err)
	}
	return out, nil
}

// Listen rings ring each time one of channels is notified, until ctx ends
// or the connection breaks (the error says which). A listener that comes
// back re-reads the tables: a notification is a ring, never the truth.
func Listen(ctx context.Context, dsn string, ring func(channel string), channels ...string) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	return listen(ctx, cfg, func(n *pgconn.Notification) {
		if n == nil {
			ring("")
			return
		}
		ring(n.Channel)
	}, channels)
}

// ListenerName is the application_name of the hub's own listener's
// connection, as pg_stat_activity shows it.
const ListenerName = "sayso hub listener"

// ListenCards rings ring with the person of each card written or closed,
// and of each change offered or signed,
// over a connection of the hub's own named ListenerName, until ctx ends
// or the connection breaks. It rings 0, every person, once it listens
// (again: it may have missed rings), and for a ring it cannot read.
func (h *Hub) ListenCards(ctx context.Context, ring func(person int64)) error {
	cfg := h.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = ListenerName
	return listen(ctx, cfg, func(n *pgconn.Notification) {
		if n == nil {
			ring(0)
			return
		}
		p, err := strconv.ParseInt(n.Payload, 10, 64)
		if err != nil || p <= 0 {
			p = 0
		}
		ring(p)
	}, []string{ChannelCards, ChannelChanges})
}

// listen calls ring with nil once it listens, then with each
// notification.
func listen(ctx context.Context, cfg *pgx.ConnConfig, ring func(*pgconn.Notification), channels []string) error {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer conn.Close(context.Background())
	for _, c := range channels {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{c}.Sanitize()); err != nil {
			return fmt.Errorf("listen %s: %w", c, err)
		}
	}
	ring(nil) // (re)connected: read the tables now
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("listen: %w", err)
		}
		ring(n)
	}
}

// personSetting is the value row-level security reads for person.
func personSetting(person int64) string { return strconv.FormatInt(person, 10) }
