package inbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkInboxList measures the newest page (limit 100) on inboxes of
// growing size: the store reads backwards, so the cost should not grow
// with the file (bench/storage.sh prints the 100k/100 ratio).
func BenchmarkInboxList(b *testing.B) {
	for _, lines := range []int{100, 10000, 100000} {
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "entries.jsonl")
			var sb strings.Builder
			for i := 0; i < lines; i++ {
				fmt.Fprintf(&sb, `{"workspaceId":"ws-%d","workspaceLabel":"research","docs":[{"path":"reports/r%d.md"}],"comments":"Finished the analysis of batch %d; see the report.","id":"id-%d","ts":%d}`+"\n", i%7, i, i, i, 1700000000000+int64(i))
			}
			if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
				b.Fatal(err)
			}
			s, err := Open(path, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p, err := s.List(ListOptions{Limit: 100})
				if err != nil || len(p.Entries) != min(100, lines) || p.Entries[0].ID != fmt.Sprint("id-", lines-1) {
					b.Fatalf("page: %v %d", err, len(p.Entries))
				}
			}
		})
	}
}
