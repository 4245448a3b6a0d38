package hubapi

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
)

// Client is a node's way to its hub: TLS to the pinned certificate only,
// every request signed with the node's key.
type Client struct {
	Base string // https://host:port
	Node int64
	Key  ed25519.PrivateKey
	HTTP *http.Client
	Now  func() time.Time // nil is the wall clock
}

// NewClient is a client of the hub at base, pinned to fingerprint pin.
func NewClient(base, pin string, node int64, key ed25519.PrivateKey) *Client {
	return &Client{Base: strings.TrimRight(base, "/"), Node: node, Key: key, HTTP: pinnedHTTP(pin)}
}

func pinnedHTTP(pin string) *http.Client {
	return &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{TLSClientConfig: PinnedTLS(pin), ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 4, IdleConnTimeout: time.Minute},
		// A hub answers; it never sends a node elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Refused is the hub's refusal of a request, with its status and words.
type Refused struct {
	Status int
	Why    string
}

func (e *Refused) Error() string { return fmt.Sprintf("the hub refused: %d %s", e.Status, e.Why) }

// ErrNoBundle is returned when the hub holds no bundle yet.
var ErrNoBundle = errors.New("the hub holds no org bundle")

// Join redeems a join token at the hub at base (pinned to pin) for a node
// named name with key: the hub's word on which node and person this is.
func Join(ctx context.Context, base, pin, token, name string, key ed25519.PublicKey) (JoinReply, error) {
	c := &Client{Base: strings.TrimRight(base, "/"), HTTP: pinnedHTTP(pin)}
	var r JoinReply
	err := c.do(ctx, http.MethodPost, PathJoin, JoinRequest{Token: token, Name: name, Key: key}, &r, false)
	return r, err
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// do sends one request, signed unless it is the join, and reads its JSON
// reply into out (nil reads none).
func (c *Client) do(ctx context.Context, method, path string, in, out any, sign bool) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	u, err := url.Parse(c.Base + path)
	if err != nil || u.Scheme != "https" {
		return fmt.Errorf("hub %q: want an https URL", c.Base)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if sign {
		Sign(req, c.Node, c.Key, body, c.now())
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodySize))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		var p Problem
		_ = json.Unmarshal(raw, &p)
		ref := &Refused{Status: resp.StatusCode, Why: p.Error}
		switch {
		case resp.StatusCode == http.StatusConflict && path == PathLedger:
			return fmt.Errorf("%s %s: %w: %w", method, path, ErrChain, ref)
		case resp.StatusCode == http.StatusNotFound && path == PathBundle:
			return fmt.Errorf("%s %s: %w", method, path, ErrNoBundle)
		}
		return fmt.Errorf("%s %s: %w", method, path, ref)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: read the reply: %w", method, path, err)
	}
	return nil
}

func (c *Client) self(node int64) error {
	if node != c.Node {
		return fmt.Errorf("this client speaks for node %d, not %d", c.Node, node)
	}
	return nil
}

// Head is the last row of the node's chain the hub holds.
func (c *Client) Head(ctx context.Context, node int64) (int64, []byte, error) {
	if err := c.self(node); err != nil {
		return 0, nil, err
	}
	var h Head
	if err := c.do(ctx, http.MethodGet, PathHead, nil, &h, true); err != nil {
		return 0, nil, err
	}
	return h.Seq, h.Hash, nil
}

// Append ships rows of the node's chain; a chain the hub refuses is
// ErrChain.
func (c *Client) Append(ctx context.Context, node int64, rows []Row) error {
	if err := c.self(node); err != nil {
		return err
	}
	if rows == nil {
		rows = []Row{}
	}
	return c.do(ctx, http.MethodPost, PathLedger, rows, nil, true)
}

// Bundle is the newest bundle the hub holds, unopened: the node opens it
// against the org key it pinned.
func (c *Client) Bundle(ctx context.Context) (bundle.Signed, error) {
	var s bundle.Signed
	err := c.do(ctx, http.MethodGet, PathBundle, nil, &s, true)
	return s, err
}

// PostCard posts one of the node's cards for its person.
func (c *Client) PostCard(ctx context.Context, id string, body []byte) error {
	return c.do(ctx, http.MethodPost, PathCards, Card{ID: id, Body: body}, nil, true)
}

// CloseCard tells the hub a card no longer waits.
func (c *Client) CloseCard(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, PathCards+"/"+url.PathEscape(id)+"/close", nil, nil, true)
}

// AskConfirm hands the hub the node's challenge for the second
// confirmation of one of its cards; nil withdraws it.
func (c *Client) AskConfirm(ctx context.Context, id string, challenge []byte) error {
	return c.do(ctx, http.MethodPost, PathCards+"/"+url.PathEscape(id)+"/confirm", Confirm{Challenge: challenge}, nil, true)
}

// Answers returns the answers given at the hub to one of the node's
// cards, oldest first.
func (c *Client) Answers(ctx context.Context, id string) ([]Answer, error) {
	var w []Answer
	if err := c.do(ctx, http.MethodGet, PathCards+"/"+url.PathEscape(id)+"/answers", nil, &w, true); err != nil {
		return nil, err
	}
	return w, nil
}

// OfferChange offers a change to the person's rules or environment note,
// the node's own bytes of it, for the person to sign.
func (c *Client) OfferChange(ctx context.Context, body []byte) error {
	return c.do(ctx, http.MethodPost, PathChanges, Change{Body: body}, nil, true)
}

// SignedChanges returns the changes the node's person signed whose
// signature's number is after after, in the hub's order. The node checks
// each against the passkeys it pinned.
func (c *Client) SignedChanges(ctx context.Context, after int64) ([]Change, error) {
	var w []Change
	if err := c.do(ctx, http.MethodGet, PathChanges+"?after="+strconv.FormatInt(after, 10), nil, &w, true); err != nil {
		return nil, err
	}
	return w, nil
}

// PostPasskeys tells the hub the passkeys the node pins for its person,
// the whole set (none, when it pins none), for routing only.
func (c *Client) PostPasskeys(ctx context.Context, keys []Passkey) error {
	if keys == nil {
		keys = []Passkey{}
	}
	return c.do(ctx, http.MethodPost, PathPasskeys, keys, nil, true)
}

// Leave tells the hub the node leaves: its key signs nothing from then on.
func (c *Client) Leave(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, PathLeave, nil, nil, true)
}

// Log reads a page of the ledger of the node's person, across their
// nodes.
func (c *Client) Log(ctx context.Context, q LogQuery) (LogPage, error) {
	var p LogPage
	err := c.do(ctx, http.MethodPost, PathLog, q, &p, true)
	return p, err
}
