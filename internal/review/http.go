package review

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// newClient returns a client that never follows a redirect: a redirect
// would carry the key and the person's words to a host nobody named.
func newClient() *http.Client {
	return &http.Client{
		Transport: http.DefaultTransport.(*http.Transport).Clone(),
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// post sends body as JSON and reads a 200 answer of at most MaxAnswer
// bytes into answer; an answer that is not such JSON is ErrMalformed.
func post(ctx context.Context, client *http.Client, url string, header http.Header, body, answer any) error {
	data, err := postRaw(ctx, client, url, header, body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, answer); err != nil {
		return fmt.Errorf("post %s: %w: %v", url, ErrMalformed, err)
	}
	return nil
}

// postRaw sends body as JSON and returns the response body, at most
// MaxAnswer bytes of it, from a 200 answer.
func postRaw(ctx context.Context, client *http.Client, url string, header http.Header, body any) ([]byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("post %s: %w", url, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("post %s: %w", url, err)
	}
	req.Header = header
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("post %s: %w", url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswer+1))
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("post %s: HTTP %d: %s", url, resp.StatusCode, snippet(data))
	}
	if err != nil {
		return nil, fmt.Errorf("post %s: read answer: %w", url, err)
	}
	if len(data) > MaxAnswer {
		return nil, fmt.Errorf("post %s: %w: over %d bytes", url, ErrTooLarge, MaxAnswer)
	}
	return data, nil
}

// snippet is the start of an error body, fit for a reason.
func snippet(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	return clean(string(b))
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}
