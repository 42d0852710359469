package git

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkOrderHistory reads the newest 50 orders of a 100- and a
// 100,000-commit history: the cost follows the limit, not the length.
func BenchmarkOrderHistory(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("history=%d", n), func(b *testing.B) {
			commits := make([]Commit, n)
			for i := range commits {
				commits[i] = Commit{Hash: fmt.Sprintf("%08x", i), Message: "seed", Operations: []Operation{buy("AAPL", "1", "MKT")},
					Results: []Result{{Action: PlaceOrder, Success: true, Status: StatusFilled, OrderID: fmt.Sprintf("o%d", i)}}, Timestamp: time.Unix(int64(i), 0).UTC()}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ProjectOrders(commits, 50)
			}
		})
	}
}
