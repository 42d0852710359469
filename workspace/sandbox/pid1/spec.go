package pid1

import "errors"

// Spec is what the init is told: the program and what to hide from it.
type Spec struct {
	// Path, Args and Dir are the program's (Dir empty: the init's own).
	Path string
	Args []string
	Dir  string
	// Hide are directories covered by an empty read-only tmpfs.
	Hide []string
	// Private are directories covered by an empty writable tmpfs of the
	// sandbox's own (the user's tmux and runtime sockets): the program
	// can make its own there, and cannot reach the ones outside.
	Private []string
	// Mask are sockets (or other files) covered by /dev/null: a tmux
	// server's socket at a path of its own (-S), which cannot be hidden
	// with its directory.
	Mask []string
	// Keep are directories (or, beneath a private one, files such as
	// the ssh agent's socket) beneath a hidden or private one, bound
	// back in.
	Keep []string
	// ReadOnly are bound read-only onto themselves.
	ReadOnly []string
	// UID, GID are the caller's: the program runs as them.
	UID, GID int
	// InitOnly are environment entries meant for the init, not the
	// program (its GOMAXPROCS, a race build's GORACE).
	InitOnly []string
	// Probe: set up, check that Absent is hidden, and exit 0 without a
	// program.
	Probe  bool
	Absent []string
}

// The spec's keys. Lists repeat their key, in order.
const (
	kPath     = "path"
	kArg      = "arg"
	kDir      = "dir"
	kHide     = "hide"
	kKeep     = "keep"
	kPrivate  = "private"
	kMask     = "mask"
	kReadOnly = "ro"
	kUID      = "uid"
	kGID      = "gid"
	kInitOnly = "initonly"
	kProbe    = "probe"
	kAbsent   = "absent"
)

// Encode is s as the value of Env: a sequence of key, value strings, each
// written as its length in decimal, a colon and its bytes (paths may hold
// any byte but NUL, which no environment value holds either).
func (s Spec) Encode() string {
	var b []byte
	put := func(k, v string) {
		for _, x := range [2]string{k, v} {
			b = append(b, itoa(len(x))...)
			b = append(b, ':')
			b = append(b, x...)
		}
	}
	list := func(k string, vs []string) {
		for _, v := range vs {
			put(k, v)
		}
	}
	put(kPath, s.Path)
	list(kArg, s.Args)
	if s.Dir != "" {
		put(kDir, s.Dir)
	}
	list(kHide, s.Hide)
	list(kKeep, s.Keep)
	list(kPrivate, s.Private)
	list(kMask, s.Mask)
	list(kReadOnly, s.ReadOnly)
	put(kUID, itoa(s.UID))
	put(kGID, itoa(s.GID))
	list(kInitOnly, s.InitOnly)
	if s.Probe {
		put(kProbe, "1")
	}
	list(kAbsent, s.Absent)
	return string(b)
}

var errSpec = errors.New("bad spec")

// Decode reads a Spec written by Encode.
func Decode(v string) (Spec, error) {
	var s Spec
	next := func() (string, bool) {
		i := 0
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		if i == 0 || i > 9 || i >= len(v) || v[i] != ':' {
			return "", false
		}
		n, _ := atoi(v[:i])
		if n > len(v)-i-1 {
			return "", false
		}
		x := v[i+1 : i+1+n]
		v = v[i+1+n:]
		return x, true
	}
	for v != "" {
		k, ok1 := next()
		x, ok2 := next()
		if !ok1 || !ok2 {
			return Spec{}, errSpec
		}
		var err error
		switch k {
		case kPath:
			s.Path = x
		case kArg:
			s.Args = append(s.Args, x)
		case kDir:
			s.Dir = x
		case kHide:
			s.Hide = append(s.Hide, x)
		case kKeep:
			s.Keep = append(s.Keep, x)
		case kPrivate:
			s.Private = append(s.Private, x)
		case kMask:
			s.Mask = append(s.Mask, x)
		case kReadOnly:
			s.ReadOnly = append(s.ReadOnly, x)
		case kUID:
			s.UID, err = atoi(x)
		case kGID:
			s.GID, err = atoi(x)
		case kInitOnly:
			s.InitOnly = append(s.InitOnly, x)
		case kProbe:
			s.Probe = x == "1"
		case kAbsent:
			s.Absent = append(s.Absent, x)
		default:
			return Spec{}, errors.New("bad spec: unknown key " + k)
		}
		if err != nil {
			return Spec{}, err
		}
	}
	if s.Path == "" && !s.Probe {
		return Spec{}, errors.New("bad spec: no program")
	}
	return s, nil
}

// itoa is the decimal form of n (strconv is left out: see the package doc).
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	var d [20]byte
	i := len(d)
	for n != 0 {
		r := n % 10
		if r < 0 {
			r = -r
		}
		i--
		d[i] = byte('0' + r)
		n /= 10
	}
	if neg {
		i--
		d[i] = '-'
	}
	return string(d[i:])
}

// atoi reads a non-negative decimal of at most 9 digits.
func atoi(s string) (int, error) {
	if s == "" || len(s) > 9 {
		return 0, errSpec
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errSpec
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, nil
}
