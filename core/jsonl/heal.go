package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Heal repairs a torn tail in place: if the file does not end in a
// newline, everything after its last newline is either salvaged (it is a
// complete JSON value: a newline is appended) or cut (appended to
// "<path>.torn", then the file is truncated to its last complete line).
// It reads only the tail, backwards, so healing a large file is cheap.
// A missing or empty file needs no healing.
func Heal(path string) (HealReport, error) {
	fd, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return HealReport{}, nil
	}
	if err != nil {
		return HealReport{}, fmt.Errorf("jsonl: heal: %w", err)
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return HealReport{}, fmt.Errorf("jsonl: heal: %w", err)
	}
	size := st.Size()
	if size == 0 {
		return HealReport{}, nil
	}
	last := make([]byte, 1)
	if _, err := fd.ReadAt(last, size-1); err != nil {
		return HealReport{}, fmt.Errorf("jsonl: heal: %w", err)
	}
	if last[0] == '\n' {
		return HealReport{}, nil
	}
	cut, err := lastNewline(fd, size)
	if err != nil {
		return HealReport{}, fmt.Errorf("jsonl: heal %s: %w", path, err)
	}
	tail := make([]byte, size-cut)
	if _, err := fd.ReadAt(tail, cut); err != nil && !errors.Is(err, io.EOF) {
		return HealReport{}, fmt.Errorf("jsonl: heal %s: %w", path, err)
	}
	if trimmed := bytes.TrimSpace(tail); len(trimmed) > 0 && json.Valid(trimmed) {
		// The value is whole; only its newline is missing.
		if _, err := fd.WriteAt([]byte{'\n'}, size); err != nil {
			return HealReport{}, fmt.Errorf("jsonl: heal %s: %w", path, err)
		}
		return HealReport{Salvaged: true}, nil
	}
	torn := path + TornSuffix
	if err := appendTorn(torn, tail); err != nil {
		return HealReport{}, fmt.Errorf("jsonl: keep torn tail of %s: %w", path, err)
	}
	if err := fd.Truncate(cut); err != nil {
		return HealReport{}, fmt.Errorf("jsonl: heal %s: %w", path, err)
	}
	return HealReport{Cut: size - cut, TornPath: torn}, nil
}

// appendTorn keeps cut bytes, one fragment per line, fsynced before the
// original is truncated so a crash between the two loses nothing.
func appendTorn(path string, frag []byte) error {
	fd, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	buf := append(append([]byte{}, bytes.ReplaceAll(frag, []byte{'\n'}, []byte{' '})...), '\n')
	if _, err := fd.Write(buf); err != nil {
		fd.Close()
		return err
	}
	if err := fd.Sync(); err != nil {
		fd.Close()
		return err
	}
	return fd.Close()
}

// lastNewline returns the offset just after the last '\n' before size
// (0 when there is none), reading backwards in blocks.
func lastNewline(r io.ReaderAt, size int64) (int64, error) {
	const block = 64 << 10
	buf := make([]byte, block)
	end := size
	for end > 0 {
		start := max(0, end-block)
		b := buf[:end-start]
		if _, err := r.ReadAt(b, start); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}
