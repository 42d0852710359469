package config

import (
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strings"
)

// Field rules every config file shares, named by a struct tag so a field
// cannot get a looser check than its siblings in another file:
//
//	cfg:"env"      the NAME of an environment variable (apiKeyEnv, botTokenEnv)
//	cfg:"baseurl"  an API endpoint: an absolute http(s) URL without query or fragment
//	cfg:"url"      an absolute http(s) URL (a news feed)
//
// An empty value means "not set" and passes; required keys are the
// type's own Validate's job. CheckFields runs them wherever a config
// value is checked (Load and Edit after the type's Validate, and
// broker.DecodePreset for presetConfig), so `alice check`, start-up and
// the settings forms refuse the same values.

var (
	envNameRe     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	profileNameRe = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// ValidEnvName reports whether s can name an environment variable.
func ValidEnvName(s string) bool { return envNameRe.MatchString(s) }

// CheckEnvName refuses s unless it can name an environment variable.
func CheckEnvName(s string) error {
	if ValidEnvName(s) {
		return nil
	}
	return fmt.Errorf("must be the NAME of an environment variable (letters, digits and _, not starting with a digit, e.g. OPENAI_API_KEY), got %q", s)
}

// CheckURL refuses s unless it is an absolute http(s) URL with a host;
// base (an API endpoint that paths are appended to) also refuses a query
// or fragment.
func CheckURL(s string, base bool) error {
	want := "an absolute http(s) URL such as \"https://example.com/feed.xml\""
	if base {
		want = "an absolute http(s) URL such as \"http://127.0.0.1:11434/v1\" (no query or fragment)"
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" ||
		strings.TrimSpace(s) != s || (base && (u.RawQuery != "" || u.ForceQuery || u.Fragment != "")) {
		return fmt.Errorf("must be %s, got %q", want, s)
	}
	return nil
}

// ValidProfileName reports whether name may name an ai-provider.json
// profile: letters, digits, - or _ (what the Settings form asks for).
func ValidProfileName(name string) bool { return profileNameRe.MatchString(name) }

// CheckFields runs the cfg:"…" rules over v (a struct, or a pointer,
// slice or map of them) and returns the first offending key's path
// ("profiles.gpt.apiKeyEnv", "feeds[2].url") and why.
func CheckFields(v any) (key string, err error) {
	return checkFields(reflect.ValueOf(v), "")
}

func checkFields(v reflect.Value, prefix string) (string, error) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "", nil
		}
		v = v.Elem()
	}
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			key := prefix
			if !f.Anonymous || name != "" {
				if name == "" {
					name = f.Name
				}
				key = join(name)
			}
			if rule := f.Tag.Get("cfg"); rule != "" {
				if err := checkRule(rule, v.Field(i)); err != nil {
					return key, err
				}
				continue
			}
			if k, err := checkFields(v.Field(i), key); err != nil {
				return k, err
			}
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return "", nil
		}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, err := checkFields(v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())), join(k)); err != nil {
				return p, err
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "", nil // json.RawMessage: its owner checks it
		}
		for i := range v.Len() {
			if p, err := checkFields(v.Index(i), fmt.Sprintf("%s[%d]", prefix, i)); err != nil {
				return p, err
			}
		}
	}
	return "", nil
}

// checkRule applies one cfg rule to a string field.
func checkRule(rule string, v reflect.Value) error {
	if v.Kind() != reflect.String {
		return fmt.Errorf("internal error: cfg:%q on a %s field", rule, v.Type())
	}
	s := v.String()
	if s == "" {
		return nil
	}
	switch rule {
	case "env":
		return CheckEnvName(s)
	case "baseurl":
		return CheckURL(s, true)
	case "url":
		return CheckURL(s, false)
	}
	return fmt.Errorf("internal error: unknown cfg rule %q", rule)
}
