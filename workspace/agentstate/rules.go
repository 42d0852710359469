package agentstate

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// defaultRules are the shipped rule files, one per agent.
//
//go:embed rules/*.json
var defaultRules embed.FS

// RulesDirName is the folder under the config dir whose <agent>.json files
// replace the shipped rules for that agent.
const RulesDirName = "agent-rules"

// defaultScreenLines is how many of the bottom non-blank screen lines a
// screen rule looks at when it does not say.
const defaultScreenLines = 12

// Rules tell how to read one agent's terminal. The file format:
//
//	{
//	  "title":  [{"match": "<regexp>", "state": "working"}],
//	  "screen": [{"match": "<regexp>", "state": "needs-you", "lines": 12}],
//	  "bell":   "needs-you",   // state a BEL means ("" ignores bells)
//	  "notify": "needs-you",   // state an OSC 9/777/99 notification means
//	  "default": "idle"        // when nothing else says anything
//	}
//
// Title and screen rules are tried in order; the first match wins.
type Rules struct {
	Agent   string
	Source  string // file the rules came from, for error messages
	Title   []Rule
	Screen  []Rule
	Bell    State
	Notify  State
	Default State
}

// Rule is one compiled pattern.
type Rule struct {
	Match *regexp.Regexp
	State State
	Lines int // screen rules: bottom non-blank lines searched
}

type fileRule struct {
	Match string `json:"match"`
	State string `json:"state"`
	Lines int    `json:"lines,omitempty"`
}

type fileRules struct {
	Comment string     `json:"comment,omitempty"`
	Title   []fileRule `json:"title"`
	Screen  []fileRule `json:"screen"`
	Bell    string     `json:"bell"`
	Notify  string     `json:"notify"`
	Default string     `json:"default"`
}

// ParseRules compiles one rule file; errors name the file and the key.
func ParseRules(agent, source string, data []byte) (*Rules, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f fileRules
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	r := &Rules{Agent: agent, Source: source}
	var err error
	if r.Title, err = compile(source, "title", f.Title); err != nil {
		return nil, err
	}
	if r.Screen, err = compile(source, "screen", f.Screen); err != nil {
		return nil, err
	}
	for _, kv := range []struct {
		key string
		val string
		dst *State
	}{{"bell", f.Bell, &r.Bell}, {"notify", f.Notify, &r.Notify}, {"default", f.Default, &r.Default}} {
		if kv.val == "" {
			continue
		}
		st, err := ParseState(kv.val)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", source, kv.key, err)
		}
		*kv.dst = st
	}
	if r.Default == Unknown {
		r.Default = Idle
	}
	return r, nil
}

func compile(source, key string, in []fileRule) ([]Rule, error) {
	out := make([]Rule, 0, len(in))
	for i, fr := range in {
		if fr.Match == "" {
			return nil, fmt.Errorf("%s: %s[%d].match: required", source, key, i)
		}
		re, err := regexp.Compile(fr.Match)
		if err != nil {
			return nil, fmt.Errorf("%s: %s[%d].match: %w", source, key, i, err)
		}
		st, err := ParseState(fr.State)
		if err != nil {
			return nil, fmt.Errorf("%s: %s[%d].state: %w", source, key, i, err)
		}
		if st == Done || st == Exited {
			return nil, fmt.Errorf("%s: %s[%d].state: %q is derived, not matched (use idle, working, needs-you or errored)", source, key, i, fr.State)
		}
		if fr.Lines < 0 {
			return nil, fmt.Errorf("%s: %s[%d].lines: must be positive", source, key, i)
		}
		lines := fr.Lines
		if lines == 0 {
			lines = defaultScreenLines
		}
		out = append(out, Rule{Match: re, State: st, Lines: lines})
	}
	return out, nil
}

// RuleSet holds the rules of every known agent.
type RuleSet struct {
	byAgent map[string]*Rules
}

// generic is used for an agent without a rule file: bells and
// notifications still count.
var genericRules = []byte(`{"bell":"needs-you","notify":"needs-you","default":"idle"}`)

// For returns the rules of agent (generic rules when it has no file).
func (rs *RuleSet) For(agent string) *Rules {
	if rs != nil {
		if r, ok := rs.byAgent[agent]; ok {
			return r
		}
	}
	r, _ := ParseRules(agent, "generic", genericRules)
	return r
}

// Agents lists the agents with rule files, sorted.
func (rs *RuleSet) Agents() []string {
	out := make([]string, 0, len(rs.byAgent))
	for a := range rs.byAgent {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// LoadRules reads the shipped rules and, when overrideDir is not empty,
// replaces an agent's rules with overrideDir/<agent>.json where that file
// exists (new agents may be added the same way). A broken override is
// reported in the returned error and the shipped rules stay in force, so
// a typo never leaves an agent without rules.
func LoadRules(overrideDir string) (*RuleSet, error) {
	rs := &RuleSet{byAgent: map[string]*Rules{}}
	entries, err := fs.ReadDir(defaultRules, "rules")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		agent := strings.TrimSuffix(e.Name(), ".json")
		b, err := defaultRules.ReadFile("rules/" + e.Name())
		if err != nil {
			return nil, err
		}
		r, err := ParseRules(agent, "rules/"+e.Name()+" (built in)", b)
		if err != nil {
			return nil, err // a shipped file is broken: tests catch this
		}
		rs.byAgent[agent] = r
	}
	if overrideDir == "" {
		return rs, nil
	}
	files, err := os.ReadDir(overrideDir)
	if errors.Is(err, fs.ErrNotExist) {
		return rs, nil
	}
	if err != nil {
		return rs, fmt.Errorf("agent rules: %w", err)
	}
	var errs []error
	for _, e := range files {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		p := filepath.Join(overrideDir, e.Name())
		b, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r, err := ParseRules(strings.TrimSuffix(e.Name(), ".json"), p, b)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rs.byAgent[r.Agent] = r
	}
	return rs, errors.Join(errs...)
}

// matchScreen applies the screen rules to the bottom of a screen.
func (r *Rules) matchScreen(lines []string) (State, string) {
	if len(r.Screen) == 0 {
		return Unknown, ""
	}
	var nonBlank []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			nonBlank = append(nonBlank, l)
		}
	}
	for _, rule := range r.Screen {
		tail := nonBlank[max(0, len(nonBlank)-rule.Lines):]
		for _, l := range tail {
			if rule.Match.MatchString(l) {
				return rule.State, strings.TrimSpace(l)
			}
		}
	}
	return Unknown, ""
}

// ScreenLines is how many of the bottom non-blank screen lines the screen
// rules read (the most any rule reads); 0 when there are no screen rules,
// so the screen need not be looked at at all.
func (r *Rules) ScreenLines() int {
	n := 0
	for _, rule := range r.Screen {
		n = max(n, rule.Lines)
	}
	return n
}

// matchTitle applies the title rules.
func (r *Rules) matchTitle(title string) State {
	for _, rule := range r.Title {
		if rule.Match.MatchString(title) {
			return rule.State
		}
	}
	return Unknown
}
