package review

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// anthropicVersion is the Messages API version sayso speaks.
const anthropicVersion = "2023-06-01"

// maxTokens bounds the reviewer's answer where the API asks for a bound.
const maxTokens = 512

// anthropic is an Anthropic Messages endpoint: POST {base}/v1/messages.
type anthropic struct {
	url, model, key string
	client          *http.Client
}

type anthropicRequest struct {
	Model     string        `json:"model"`
	MaxTokens int           `json:"max_tokens"`
	System    string        `json:"system"`
	Messages  []chatMessage `json:"messages"`
}

type anthropicResponse struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
}

func (a *anthropic) send(ctx context.Context, system, message string, _ *Input) (string, error) {
	h := http.Header{}
	if a.key != "" {
		h.Set("X-Api-Key", a.key)
	}
	h.Set("Anthropic-Version", anthropicVersion)
	body := anthropicRequest{
		Model: a.model, MaxTokens: maxTokens, System: system,
		Messages: []chatMessage{{Role: "user", Content: message}},
	}
	var resp anthropicResponse
	if err := post(ctx, a.client, a.url, h, body, &resp); err != nil {
		return "", err
	}
	if resp.StopReason == "refusal" {
		return "", fmt.Errorf("post %s: %w", a.url, ErrRefused)
	}
	var text strings.Builder
	for _, c := range resp.Content {
		if c.Type == "text" {
			text.WriteString(c.Text)
		}
	}
	return text.String(), nil
}
