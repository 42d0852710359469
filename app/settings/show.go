package settings

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
)

// secretKey matches keys whose values are never shown.
var secretKey = regexp.MustCompile(`(?i)(key|secret|token|password)$`)

// Masked is the text shown for a secret value.
const Masked = "••••••"

// Shown is a config file prepared for display.
type Shown struct {
	File
	JSON []byte // indented, every secret value replaced by Masked
	Err  error  // unreadable or not JSON (JSON is then nil)
}

// Show returns file name as it is on disk, indented, keys sorted, with
// secrets masked. A missing file has Exists false and no JSON.
func (s *Service) Show(name string) (Shown, error) {
	if _, err := FileName(name); err != nil {
		return Shown{}, err
	}
	out := Shown{File: File{Name: name, Path: s.store.Path(name)}}
	data, v, err := s.store.ReadRaw(name)
	if err != nil {
		out.Exists, out.Err = true, err
		return out, nil
	}
	if v == "" {
		return out, nil
	}
	out.Exists = true
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		out.Err = fmt.Errorf("invalid JSON: %v", err)
		return out, nil
	}
	out.JSON, _ = json.MarshalIndent(maskSecrets(doc), "", "  ")
	return out, nil
}

func maskSecrets(v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		for _, k := range keys {
			if s, ok := x[k].(string); ok && s != "" && secretKey.MatchString(k) {
				out[k] = Masked
				continue
			}
			out[k] = maskSecrets(x[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = maskSecrets(x[i])
		}
		return out
	}
	return v
}
