package review

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/enum"
)

// Kind is the reviewer's backend. The zero value is KindNone: no reviewer,
// and auto simply asks.
type Kind uint8

const (
	KindNone Kind = iota
	KindAnthropic
	KindOpenAI
	KindCommand
)

var kindNames = enum.New[Kind]("kind", "unknown reviewer kind %q (want anthropic, openai or command)", "none", "anthropic", "openai", "command")

func (k Kind) String() string { return kindNames.String(k) }

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return kindNames.Marshal(k) }

// UnmarshalText implements encoding.TextUnmarshaler; unknown text is an error.
func (k *Kind) UnmarshalText(b []byte) error { return kindNames.Unmarshal(k, b) }

// ParseKind returns the backend named s.
func ParseKind(s string) (Kind, error) { return kindNames.Parse(s) }

// Config is the [reviewer] table of the policy file.
type Config struct {
	Kind    Kind
	BaseURL string        // the endpoint's base; requests go to BaseURL + "/v1/…"
	Model   string        // the model to ask
	KeyEnv  string        // the environment variable holding the API key; empty sends none
	Timeout time.Duration // for the whole request; zero is DefaultTimeout
	Command []string      // for KindCommand: the program and its arguments
}

// DefaultTimeout bounds a review when the config names no timeout.
const DefaultTimeout = 15 * time.Second

// Default base URLs for the hosted endpoints.
const (
	AnthropicURL = "https://api.anthropic.com"
	OpenAIURL    = "https://api.openai.com"
)

func (c Config) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

func (c Config) base() string {
	b := c.BaseURL
	if b == "" {
		switch c.Kind {
		case KindAnthropic:
			b = AnthropicURL
		case KindOpenAI:
			b = OpenAIURL
		}
	}
	return strings.TrimRight(b, "/")
}

// Validate reports what is wrong with c, or nil.
func (c Config) Validate() error {
	switch c.Kind {
	case KindNone:
		return nil
	case KindAnthropic, KindOpenAI:
		if c.Model == "" {
			return fmt.Errorf("reviewer %s: no model", c.Kind)
		}
		if len(c.Command) > 0 {
			return fmt.Errorf("reviewer %s: command is only for kind command", c.Kind)
		}
		u, err := url.Parse(c.base())
		if err != nil {
			return fmt.Errorf("reviewer %s: base url: %w", c.Kind, err)
		}
		if u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("reviewer %s: base url %q: want scheme://host[:port][/path]", c.Kind, c.BaseURL)
		}
		switch {
		case u.Scheme == "https":
		case u.Scheme == "http" && loopback(u.Hostname()):
		default:
			return fmt.Errorf("reviewer %s: base url %q: want https, or http only to this machine", c.Kind, c.BaseURL)
		}
	case KindCommand:
		if len(c.Command) == 0 || c.Command[0] == "" {
			return fmt.Errorf("reviewer command: no program")
		}
		if c.BaseURL != "" || c.KeyEnv != "" {
			return fmt.Errorf("reviewer command: base url and key are only for endpoints")
		}
	default:
		return fmt.Errorf("reviewer: unknown kind %s", c.Kind)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("reviewer %s: negative timeout", c.Kind)
	}
	return nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
