package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// fakeReviewer is the reviewer command the review-*.txtar scripts name in
// their policy file: JSON on stdin, a verdict on stdout, as sayso's
// command backend speaks. It judges like a careful reader without a
// model: the person's last word about pushing decides; a "stop" or a
// "don't" after it, or no such word, asks; a severe step needs words that
// name a force push. Each request it reads is
// appended to $REVIEWER_LOG, so a script can check what it was shown.
func fakeReviewer() int {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-reviewer:", err)
		return 1
	}
	if name := os.Getenv("REVIEWER_LOG"); name != "" {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err == nil {
			f.Write(append(in, '\n'))
			f.Close()
		}
	}
	var req struct {
		Input struct {
			Command    string `json:"command"`
			Severe     bool   `json:"severe"`
			OwnerWords []struct {
				Text       string `json:"text"`
				FromParent bool   `json:"from_parent"`
			} `json:"owner_words"`
		} `json:"input"`
	}
	if err := json.Unmarshal(in, &req); err != nil {
		fmt.Fprintln(os.Stderr, "fake-reviewer:", err)
		return 1
	}
	v := map[string]string{"verdict": "ask", "reason": "the person did not ask for this push"}
	if strings.Contains(req.Input.Command, "push") {
		for _, w := range req.Input.OwnerWords {
			lower := strings.ToLower(w.Text)
			switch {
			case strings.Contains(lower, "stop") || strings.Contains(lower, "don't") || strings.Contains(lower, "not yet"):
				v = map[string]string{"verdict": "ask", "reason": "the person said to wait", "quote": w.Text}
			case req.Input.Severe && !strings.Contains(lower, "force"):
				// A severe step passes only if the words name it.
			case strings.Contains(lower, "push"):
				v = map[string]string{"verdict": "allow", "reason": "the person asked for the push", "quote": w.Text}
			}
		}
	}
	if os.Getenv("REVIEWER_QUOTE") != "" && v["verdict"] == "allow" {
		v["quote"] = os.Getenv("REVIEWER_QUOTE") // a quote the person never said
	}
	json.NewEncoder(os.Stdout).Encode(v)
	return 0
}
