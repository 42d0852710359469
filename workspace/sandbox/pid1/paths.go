package pid1

// Path helpers for clean absolute paths (the sandbox cleans every path it
// puts in a Spec); path/filepath and strings are left out on purpose (see
// the package doc).

func hasPrefix(s, prefix string) bool {
	return len(s) >= len(prefix) && s[:len(prefix)] == prefix
}

// parent is the directory holding p ("/" for a top-level entry).
func parent(p string) string {
	for i := len(p) - 1; i > 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return "/"
}

// within reports that p is dir or beneath it.
func within(dir, p string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return hasPrefix(p, dir+"/")
}

// byLength sorts ps, shortest first (outer directories before inner
// ones); the lists are a handful long.
func byLength(ps []string) []string {
	out := append([]string(nil), ps...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) < len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func contains(ps []string, p string) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}
