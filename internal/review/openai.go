package review

import (
	"context"
	"fmt"
	"net/http"
)

// openAI is an OpenAI-compatible chat completions endpoint:
// POST {base}/v1/chat/completions.
type openAI struct {
	url, model, key string
	client          *http.Client
}

type openAIRequest struct {
	Model    string        `json:"model"`
	Messages []chatMessage `json:"messages"`
}

type openAIResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

func (o *openAI) send(ctx context.Context, system, message string, _ *Input) (string, error) {
	h := http.Header{}
	if o.key != "" {
		h.Set("Authorization", "Bearer "+o.key)
	}
	body := openAIRequest{
		Model: o.model,
		Messages: []chatMessage{
			{Role: "system", Content: system},
			{Role: "user", Content: message},
		},
	}
	var resp openAIResponse
	if err := post(ctx, o.client, o.url, h, body, &resp); err != nil {
		return "", err
	}
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("post %s: %w: no choices", o.url, ErrMalformed)
	}
	c := resp.Choices[0]
	if c.Message.Refusal != nil && *c.Message.Refusal != "" || c.FinishReason == "content_filter" {
		return "", fmt.Errorf("post %s: %w", o.url, ErrRefused)
	}
	if c.Message.Content == nil {
		return "", fmt.Errorf("post %s: %w: no content", o.url, ErrMalformed)
	}
	return *c.Message.Content, nil
}
