package jsonl

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
)

// blockSize is how much Backward reads per step. Most reads of "the last
// few lines" finish inside one block.
const blockSize = 64 << 10

// Scanner walks a file's complete lines from the newest to the oldest,
// reading backwards in blocks. Blank lines are skipped. A trailing line
// without its newline (an append in progress) is never returned.
type Scanner struct {
	fd      *os.File
	off     int64  // file offset of buf[0]
	buf     []byte // unconsumed bytes: file[off : off+len(buf)]
	line    []byte
	lineOff int64
	started bool
	err     error
}

// Backward opens a Scanner over the file. A missing file scans as empty.
// Close it when done.
func (f *File) Backward() (*Scanner, error) { return Backward(f.path) }

// Backward opens a Scanner over path (missing file: no lines).
func Backward(path string) (*Scanner, error) {
	fd, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Scanner{}, nil
	}
	if err != nil {
		return nil, err
	}
	st, err := fd.Stat()
	if err != nil {
		fd.Close()
		return nil, err
	}
	return &Scanner{fd: fd, off: st.Size()}, nil
}

// Scan advances to the previous line; false at the start of the file or
// on an error (see Err).
func (s *Scanner) Scan() bool {
	if s.fd == nil || s.err != nil {
		return false
	}
	for {
		if !s.started {
			// Position buf at the end of the last complete line, so a
			// partial trailing write is ignored.
			if !s.fill() {
				return false
			}
			i := bytes.LastIndexByte(s.buf, '\n')
			if i < 0 {
				if s.off == 0 {
					return false // no complete line at all
				}
				continue
			}
			s.buf = s.buf[:i+1]
			s.started = true
		}
		if len(s.buf) == 0 {
			if s.off == 0 {
				return false
			}
			if !s.fill() {
				return false
			}
			continue
		}
		end := len(s.buf) - 1 // buf always ends with the '\n' of the next line to return
		i := bytes.LastIndexByte(s.buf[:end], '\n')
		if i < 0 && s.off > 0 {
			if !s.fill() {
				return false
			}
			continue
		}
		s.line = s.buf[i+1 : end]
		s.lineOff = s.off + int64(i+1)
		s.buf = s.buf[:i+1]
		if len(bytes.TrimSpace(s.line)) == 0 {
			continue
		}
		return true
	}
}

// fill prepends the block before off to buf (a fresh buffer, so lines
// already returned stay valid).
func (s *Scanner) fill() bool {
	if s.off == 0 {
		return len(s.buf) > 0
	}
	n := int64(blockSize)
	if len(s.buf) > blockSize {
		n = int64(len(s.buf)) // grow geometrically for very long lines
	}
	start := max(0, s.off-n)
	nb := make([]byte, int(s.off-start)+len(s.buf))
	if _, err := s.fd.ReadAt(nb[:s.off-start], start); err != nil {
		s.err = err
		return false
	}
	copy(nb[s.off-start:], s.buf)
	s.buf, s.off = nb, start
	return true
}

// Line is the current line without its newline; valid until the scanner
// is closed (it is not overwritten by later Scans).
func (s *Scanner) Line() []byte { return s.line }

// Offset is the file offset where the current line starts.
func (s *Scanner) Offset() int64 { return s.lineOff }

// Err is the first read error.
func (s *Scanner) Err() error { return s.err }

// Close releases the file.
func (s *Scanner) Close() error {
	if s.fd == nil {
		return nil
	}
	err := s.fd.Close()
	s.fd = nil
	return err
}

// Tail returns the last n lines for which keep returns true (nil keep:
// every line), oldest first. n <= 0 means no limit (the whole file).
func (f *File) Tail(n int, keep func(line []byte) bool) ([][]byte, error) {
	return Tail(f.path, n, keep)
}

// Tail is File.Tail for a path.
func Tail(path string, n int, keep func(line []byte) bool) ([][]byte, error) {
	var out [][]byte
	err := Each(path, func(line []byte) bool {
		if keep == nil || keep(line) {
			out = append(out, line)
		}
		return n <= 0 || len(out) < n
	})
	reverse(out)
	return out, err
}

// Since returns the lines from the last line for which boundary returns
// true (included) to the end, oldest first; the whole file when no line
// matches. Cost is proportional to the lines returned.
func (f *File) Since(boundary func(line []byte) bool) ([][]byte, error) {
	return Since(f.path, boundary)
}

// Since is File.Since for a path.
func Since(path string, boundary func(line []byte) bool) ([][]byte, error) {
	var out [][]byte
	err := Each(path, func(line []byte) bool {
		out = append(out, line)
		return !boundary(line)
	})
	reverse(out)
	return out, err
}

// Each calls fn for each complete line newest first until it returns
// false. The slices stay valid after the call.
func Each(path string, fn func(line []byte) bool) error {
	s, err := Backward(path)
	if err != nil {
		return err
	}
	defer s.Close()
	for s.Scan() {
		if !fn(s.Line()) {
			break
		}
	}
	return s.Err()
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
