package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/enum"
)

// Answer is what the reviewer said. The zero value is Ask: a reviewer that
// said nothing, or nothing valid, lets nothing through.
type Answer uint8

const (
	Ask Answer = iota
	Allow
)

var answerNames = enum.New[Answer]("answer", "unknown verdict %q (want allow or ask)", "ask", "allow")

func (a Answer) String() string { return answerNames.String(a) }

// MarshalText implements encoding.TextMarshaler.
func (a Answer) MarshalText() ([]byte, error) { return answerNames.Marshal(a) }

// UnmarshalText implements encoding.TextUnmarshaler; unknown text is an error.
func (a *Answer) UnmarshalText(b []byte) error { return answerNames.Unmarshal(a, b) }

// ParseAnswer returns the answer named s.
func ParseAnswer(s string) (Answer, error) { return answerNames.Parse(s) }

// Verdict is the reviewer's judgement of one step. The zero value is Ask.
type Verdict struct {
	Answer Answer `json:"verdict"`
	Reason string `json:"reason"`
	// Quote is the person's words the reviewer relied on, verbatim from one
	// owner word; empty unless Answer is Allow.
	Quote string `json:"quote,omitempty"`
	// FromParent reports that the quote was inherited from a parent session.
	FromParent bool `json:"from_parent,omitempty"`
	// Err is why the reviewer gave no valid answer: a transport failure,
	// a malformed answer, a quote the person never said. Nil when the
	// reviewer answered and the answer held.
	Err error `json:"-"`
}

// Errors a Verdict may carry; callers branch on them with errors.Is.
var (
	ErrMalformed = errors.New("malformed answer")
	ErrTooLarge  = errors.New("answer too large")
	ErrRefused   = errors.New("reviewer refused")
	ErrQuote     = errors.New("quote not in the owner words")
	ErrInput     = errors.New("input not reviewable")
)

// MaxAnswer caps how much of a backend's answer is read.
const MaxAnswer = 64 << 10

// maxReason caps the reason kept from the reviewer.
const maxReason = 500

// failed is the Ask verdict for a reviewer that gave no valid answer.
func failed(err error) Verdict {
	return Verdict{Answer: Ask, Reason: "the reviewer gave no valid answer: " + err.Error(), Err: err}
}

// parseVerdict reads a reviewer's answer strictly: one JSON object with a
// "verdict" of "allow" or "ask", a non-empty "reason" and, for allow, a
// "quote"; each key once, no other key, nothing after it. A single Markdown
// code fence around the object is tolerated.
func parseVerdict(text string) (Verdict, error) {
	text = strings.TrimSpace(text)
	if body, ok := strings.CutPrefix(text, "```"); ok {
		body = strings.TrimPrefix(body, "json")
		body, ok = strings.CutSuffix(body, "```")
		if !ok {
			return Verdict{}, fmt.Errorf("%w: unclosed code fence", ErrMalformed)
		}
		text = strings.TrimSpace(body)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return Verdict{}, fmt.Errorf("%w: not a JSON object", ErrMalformed)
	}
	fields := map[string]string{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return Verdict{}, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		key, _ := t.(string)
		switch key {
		case "verdict", "reason", "quote":
		default:
			return Verdict{}, fmt.Errorf("%w: unexpected key %q", ErrMalformed, key)
		}
		if _, dup := fields[key]; dup {
			return Verdict{}, fmt.Errorf("%w: key %q twice", ErrMalformed, key)
		}
		t, err = dec.Token()
		if err != nil {
			return Verdict{}, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		s, ok := t.(string)
		if !ok {
			return Verdict{}, fmt.Errorf("%w: %q is not a string", ErrMalformed, key)
		}
		fields[key] = s
	}
	if _, err := dec.Token(); err != nil {
		return Verdict{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if rest, _ := readRest(dec); len(bytes.TrimSpace(rest)) > 0 {
		return Verdict{}, fmt.Errorf("%w: text after the object", ErrMalformed)
	}
	a, err := ParseAnswer(fields["verdict"])
	if err != nil {
		return Verdict{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	v := Verdict{Answer: a, Reason: clean(fields["reason"]), Quote: fields["quote"]}
	if v.Reason == "" {
		return Verdict{}, fmt.Errorf("%w: no reason", ErrMalformed)
	}
	return v, nil
}

func readRest(dec *json.Decoder) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(dec.Buffered())
	return b.Bytes(), err
}

// clean keeps a reason fit for a card and a terminal: no control
// characters, at most maxReason runes.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > maxReason {
		s = string([]rune(s)[:maxReason]) + "…"
	}
	return s
}

// hold checks an allow against the owner words: its quote must be a span
// of whole words of one of them that carries meaning about the step
// (quoteWhy). Any other verdict is returned as Ask.
func hold(v Verdict, in *Input) Verdict {
	if v.Answer != Allow {
		return Verdict{Answer: Ask, Reason: v.Reason}
	}
	q := strings.TrimSpace(v.Quote)
	if q == "" {
		return Verdict{Answer: Ask, Reason: "the reviewer allowed without quoting the person: " + v.Reason, Err: ErrQuote}
	}
	why := ""
	for _, w := range in.OwnerWords {
		if !strings.Contains(w.Text, q) {
			continue
		}
		if why = quoteWhy(q, w.Text, in); why == "" {
			return Verdict{Answer: Allow, Reason: v.Reason, Quote: q, FromParent: w.FromParent}
		}
	}
	if why != "" {
		return Verdict{Answer: Ask, Reason: "the reviewer's quote " + strconv.Quote(q) + " is not believed: " + why + ": " + v.Reason, Err: ErrQuote}
	}
	return Verdict{Answer: Ask, Reason: "the reviewer quoted words the person did not say: " + v.Reason, Err: ErrQuote}
}
