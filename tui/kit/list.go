package kit

// Every list keeps its cursor on the item, not on the row number: a reload
// that inserts rows above it (a workspace created from the CLI, a new inbox
// entry, a fresh quote re-sorting the watchlist), re-sorts or removes other
// rows leaves the same item selected, so the next key acts on what the
// person chose. Each pane names its rows by a key (an id, a symbol, a
// sequence number) and calls Replace (or KeyAt + Reselect when the rows
// are derived from several fields).

// KeyAt is the key of items[i], or "" when i is out of range (nothing
// selected).
func KeyAt[T any](items []T, key func(T) string, i int) string {
	if i < 0 || i >= len(items) {
		return ""
	}
	return key(items[i])
}

// Reselect is where the cursor goes in items: on the item keyed k (the
// one selected before the change); when it is gone (or k is ""), on
// fallback clamped to the list (the old row number keeps the neighbour of
// a removed item; 0 starts a new search at its best match).
func Reselect[T any](items []T, key func(T) string, k string, fallback int) int {
	if k != "" {
		for i, it := range items {
			if key(it) == k {
				return i
			}
		}
	}
	return max(0, min(fallback, len(items)-1))
}

// Replace sets *items to next and moves *sel with the item it was on.
func Replace[T any](items *[]T, sel *int, next []T, key func(T) string) {
	k := KeyAt(*items, key, *sel)
	*items = next
	*sel = Reselect(next, key, k, *sel)
}
